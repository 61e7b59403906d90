// Kith's only script, and a courtesy: every form works without it. A
// form with data-confirm asks before it is sent (deleting a person).
document.addEventListener("submit", function (ev) {
  var msg = ev.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) ev.preventDefault();
});

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
