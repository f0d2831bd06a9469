// Applies the reader's stored theme before the page paints. The app (src/app/theme.rs) owns
// the value; this only reads it, and ignores anything it cannot parse.
(function () {
  try {
    var raw = window.localStorage.getItem("ie-course:theme");
    var theme = raw && JSON.parse(raw).data;
    if (theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  } catch (e) {
    /* storage blocked or value unreadable: the system setting applies */
  }
})();
