// The lobby: starts a table of a served game and lists its seats' addresses.
(function () {
  "use strict";
  var form = document.getElementById("lobby");
  var refusal = document.getElementById("refusal");
  var seats = document.getElementById("seats");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var bots = {};
    form.bots.value.split(/\s+/).forEach(function (spec) {
      var parts = spec.split("=");
      if (parts.length === 2) { bots[parts[0]] = parts[1]; }
    });
    var body = {game: form.game.value, bots: bots};
    if (form.players.value) { body.players = Number(form.players.value); }
    fetch(location.pathname.replace(/\/+$/, "") + "/tables", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) { refusal.textContent = "refused: " + data.refused; return; }
        refusal.textContent = "";
        Object.keys(data.seats).forEach(function (seat) {
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.href = data.seats[seat];
          link.textContent = data.seats[seat];
          item.append(data.table + " P" + seat + ": ", link);
          seats.append(item);
        });
      });
    });
  });
})();
