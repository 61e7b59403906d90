// Kith's only script, and a courtesy: every form works without it. A
// form with data-confirm asks before it is sent (deleting a person).
document.addEventListener("submit", function (ev) {
  var msg = ev.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) ev.preventDefault();
});

// person: a form fits its kind. A select marked data-fits picks the
// fields shown: a field whose data-for lists other values is hidden
// (its value is still sent, and the API ignores another kind's fields).
// Without the script every field shows.
(function () {
  function fit(select) {
    if (!select.form) return;
    var fields = select.form.querySelectorAll("[data-for]");
    for (var i = 0; i < fields.length; i++) {
      fields[i].hidden = fields[i].getAttribute("data-for").split(" ").indexOf(select.value) < 0;
    }
  }
  var selects = document.querySelectorAll("select[data-fits]");
  for (var i = 0; i < selects.length; i++) fit(selects[i]);
  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("select[data-fits]")) fit(ev.target);
  });
})();

/* settings: a secret shown once (a key's token, a feed's address, a
   webhook's signing key) gets a Copy button, shown only where the browser
   offers a clipboard; without it the secret stays there to select. */
(function () {
  if (!navigator.clipboard || !navigator.clipboard.writeText) return;
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector("[role=status]");
    if (!source) return;
    button.hidden = false;
    var timer;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(source.textContent.trim()).then(function () {
        status.textContent = "Copied";
      }, function () {
        status.textContent = "Could not copy: select the text and copy it.";
      });
      clearTimeout(timer);
      timer = setTimeout(function () { status.textContent = ""; }, 4000);
    });
  });
})();

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
