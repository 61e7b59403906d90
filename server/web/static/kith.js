// Kith's only script, and a courtesy: every form works without it. A
// form with data-confirm asks before it is sent (deleting a person).
document.addEventListener("submit", function (ev) {
  var msg = ev.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) ev.preventDefault();
});
