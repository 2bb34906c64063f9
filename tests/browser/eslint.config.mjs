// The lint of the page scripts (`make lint-pages`, part of `make test`): ESLint's
// recommended rules over every script the server sends (src/bunco/web/static), each with
// the globals of where it runs.
// - js/*.js: the pages' ES modules (<script type="module">), in the browser;
// - boot.js: a classic script the server puts inside a page's <head> (bunco.web.assets);
// - sw.js: the service worker, a classic script (pwa.js registers it without type).
import js from "@eslint/js";
import globals from "globals";

const STATIC = "src/bunco/web/static";

export default [
  {
    files: [`${STATIC}/**/*.js`],
    ...js.configs.recommended,
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: [`${STATIC}/js/**/*.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: [`${STATIC}/boot.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: [`${STATIC}/sw.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
