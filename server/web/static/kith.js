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

/* passkeys: a form marked data-passkey runs a WebAuthn ceremony before it
   is sent. It asks the server for options (POST to data-options with the
   form's CSRF value), hands them to the browser, and sends the browser's
   answer in the hidden field credential; the server checks it and answers
   with a page. Without the script, or in a browser without WebAuthn, the
   form goes as it is and the server's page says what is missing. */
(function () {
  if (!window.PublicKeyCredential || !navigator.credentials || !window.fetch) return;
  function encode(buf) {
    var bytes = new Uint8Array(buf), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decode(text) {
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes.buffer;
  }
  function decodeIDs(list) {
    (list || []).forEach(function (c) { c.id = decode(c.id); });
  }
  function answer(cred) {
    var r = cred.response;
    var out = { id: cred.id, rawId: encode(cred.rawId), type: cred.type,
      clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
      response: { clientDataJSON: encode(r.clientDataJSON) } };
    if (cred.authenticatorAttachment) out.authenticatorAttachment = cred.authenticatorAttachment;
    if (r.attestationObject) {
      out.response.attestationObject = encode(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = encode(r.authenticatorData);
      out.response.signature = encode(r.signature);
      if (r.userHandle) out.response.userHandle = encode(r.userHandle);
    }
    return JSON.stringify(out);
  }
  function why(err) {
    if (err && err.status === 403) return "This page has expired. Reload it and try again.";
    if (err && err.status === 400 || err && err.name === "SecurityError") {
      return "This browser refuses passkeys at this address: open Kith at its domain name, or at localhost.";
    }
    if (err && err.name === "NotAllowedError") return "No passkey was used: it was cancelled, or took too long. Try again.";
    if (err && err.name === "InvalidStateError") return "This device already keeps a passkey of yours for Kith.";
    return "Passkeys did not work here. Reload the page and try again.";
  }
  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    var register = form.getAttribute("data-passkey") === "register";
    var status = form.querySelector("[data-passkey-status]");
    var field = form.elements.namedItem("credential");
    form.addEventListener("submit", function (ev) {
      var name = form.elements.namedItem("name");
      if (field.value || (register && !name.value.trim())) return; // the server says what is missing
      ev.preventDefault();
      status.textContent = "Waiting for your passkey…";
      var body = new URLSearchParams();
      body.set("csrf", form.elements.namedItem("csrf").value);
      fetch(form.getAttribute("data-options"), { method: "POST", body: body, credentials: "same-origin" })
        .then(function (res) {
          if (!res.ok) throw { status: res.status };
          return res.json();
        })
        .then(function (options) {
          var pk = options.publicKey;
          pk.challenge = decode(pk.challenge);
          if (register) {
            pk.user.id = decode(pk.user.id);
            decodeIDs(pk.excludeCredentials);
            return navigator.credentials.create({ publicKey: pk });
          }
          decodeIDs(pk.allowCredentials);
          return navigator.credentials.get({ publicKey: pk });
        })
        .then(function (cred) {
          field.value = answer(cred);
          status.textContent = "";
          form.submit();
        }, function (err) {
          status.textContent = why(err);
        });
    });
  });
})();
