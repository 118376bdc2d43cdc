// amlscreen workbench: small progressive enhancements. Every page works
// without this file.
(function () {
  "use strict";

  // Filters that only individuals take are disabled for entity
  // screenings and profiles, so that nobody types a date the check
  // would not use.
  function followType(select) {
    var form = select.form;
    if (!form) { return; }
    var apply = function () {
      var off = select.value === "entity";
      form.querySelectorAll(".individual-only").forEach(function (field) {
        field.classList.toggle("is-off", off);
        field.querySelectorAll("input, select").forEach(function (el) { el.disabled = off; });
      });
    };
    select.addEventListener("change", apply);
    apply();
  }
  document.querySelectorAll("select#type, select#ptype").forEach(followType);

  // Forms that remove or resend ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { ev.preventDefault(); }
    });
  });

  // An error message takes focus, so that screen readers and keyboard
  // users land on it.
  var err = document.getElementById("page-error");
  if (err) { err.setAttribute("tabindex", "-1"); err.focus(); }
})();
