// What the benchmark's scripts share: their command line, and the median they report.

/** The command line's arguments. */
export const argv = process.argv.slice(2);

/** The value after `--name` on the command line, or `fallback`. */
export const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};

/** The median of `xs` (the lower of the middle two), or undefined for none. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
