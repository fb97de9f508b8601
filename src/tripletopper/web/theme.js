// Light, dark or the system's theme, on every page.  A classic script loaded in the head, so
// a chosen theme is set before the page is drawn (no flash of the other one); "system" is
// no attribute at all and app.css follows prefers-color-scheme.  The choice is remembered in
// localStorage ("tt-theme") and offered by a select put in every [data-theme-control].
(function () {
  const KEY = "tt-theme";
  const CHOICES = [["system", "System theme"], ["light", "Light"], ["dark", "Dark"]];
  const root = document.documentElement;

  function stored() {
    try {
      const value = localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch (e) {
      return "system";
    }
  }

  function apply(value) {
    if (value === "system") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", value);
  }

  function choose(value) {
    try { localStorage.setItem(KEY, value); } catch (e) { /* private mode: this page only */ }
    apply(value);
    document.querySelectorAll("select.theme-choice").forEach((select) => { select.value = value; });
  }

  function controls() {
    document.querySelectorAll("[data-theme-control]").forEach((slot) => {
      if (slot.querySelector("select")) return;
      const select = document.createElement("select");
      select.className = "theme-choice";
      select.setAttribute("aria-label", "Theme");
      select.title = "Light, dark, or as your system is set";
      for (const [value, text] of CHOICES) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = text;
        select.append(option);
      }
      select.value = stored();
      select.addEventListener("change", () => choose(select.value));
      slot.append(select);
    });
  }

  apply(stored());
  window.ttTheme = { choose, stored };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", controls);
  else controls();
})();
