// A seat's page: plays the moves clicked or typed, and redraws the table when it changes.
// A spectator's page has no form: it only redraws.
// No build step: plain JavaScript, served as a static file. The seat's address is the page's own.
(function () {
  "use strict";
  var base = location.pathname.replace(/\/+$/, "");
  var refusal = document.getElementById("refusal");
  var typed = document.getElementById("typed");
  var input = document.getElementById("typed-move");
  var undo = document.getElementById("undo");

  function table() { return document.getElementById("table"); }
  function version() { return Number(table().dataset.version); }

  // the form and undo follow the table: undo only where the terminal would allow it
  function controls() {
    if (!typed) { return; }
    var t = table();
    undo.disabled = t.dataset.canUndo !== "true";
    typed.querySelector("button[type=submit]").disabled = t.dataset.finished === "true";
  }

  function replace(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.firstElementChild;
    table().replaceWith(fresh);
    controls();
  }

  function post(path, body) {
    body.after = version();       // a request made on an older table is refused, not played twice
    return fetch(base + path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          refusal.textContent = "refused: " + (data.refused || ("error " + response.status));
          return false;
        }
        refusal.textContent = "";
        return true;
      });
    }).catch(function () {
      refusal.textContent = "the server cannot be reached";
      return false;
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-move]") : null;
    if (target && !target.disabled) {
      post("/move", {move: target.getAttribute("data-move")});
    }
  });
  if (typed) {
    typed.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = input.value;
      if (!text.trim()) { return; }
      post("/move", {move: text}).then(function (played) { if (played) { input.value = ""; } });
    });
    undo.addEventListener("click", function () { post("/undo", {}); });
  }

  // live updates: the server sends this seat's changed table (its view only) at every change
  var source = new EventSource(base + "/events");
  source.addEventListener("table", function (event) {
    var message = JSON.parse(event.data);
    if (message.version !== version()) { replace(message.html); }
  });
  controls();
})();
