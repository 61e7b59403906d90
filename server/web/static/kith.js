// Kith's only script, and a courtesy: every form works without it. A
// form with data-confirm asks before it is sent (deleting a person).
document.addEventListener("submit", function (ev) {
  var msg = ev.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) ev.preventDefault();
});

// dash: the dashboard offers the browser's time zone while the user's is
// still UTC. The server lists the zones it knows in data-zones, so that
// the offer is never one it would refuse; "Keep UTC" is remembered here.
(function () {
  var form = document.getElementById("tz-proposal");
  if (!form || !window.Intl || !Intl.DateTimeFormat) return;
  var key = "kith-keep-utc";
  try { if (window.localStorage.getItem(key)) return; } catch (e) {}
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var known = (form.getAttribute("data-zones") || "").split(/\s+/);
  if (!zone || zone === "UTC" || known.indexOf(zone) < 0) return;
  form.elements.timezone.value = zone;
  form.querySelector(".tz-name").textContent = zone;
  form.querySelector(".tz-use").textContent = "Use " + zone;
  form.querySelector(".tz-keep").addEventListener("click", function () {
    try { window.localStorage.setItem(key, "1"); } catch (e) {}
    form.hidden = true;
  });
  form.hidden = false;
})();
