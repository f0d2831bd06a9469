// Runs before the page paints (a small, hashed file loaded from <head>):
// 1. applies the reader's stored theme; the app (src/app/theme.rs) owns the value, this only
//    reads it and ignores anything it cannot parse;
// 2. registers the service worker that keeps the course readable offline (sw.js, written by
//    the post-build hook next to index.html, at the site's base);
// 3. marks the page as scripted (`<html class="js">`), so a widget's place says "Loading" here
//    and "needs JavaScript" where scripts do not run.
(function () {
  document.documentElement.classList.add("js");
  try {
    var raw = window.localStorage.getItem("ie-course:theme");
    var theme = raw && JSON.parse(raw).data;
    if (theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  } catch (e) {
    /* storage blocked or value unreadable: the system setting applies */
  }
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      var base = document.baseURI;
      navigator.serviceWorker.register(new URL("sw.js", base).href, { scope: new URL("./", base).pathname })
        .catch(function () { /* offline reading is a bonus: the course works without it */ });
    });
  }
})();
