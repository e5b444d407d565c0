// Skirmish table view. Reads the viewer token from this page's address, fetches the redacted
// encounter and follows the redacted event stream, fetching the state again after each event.
// Everything is written with textContent: names from the fight are never parsed as HTML.
"use strict";

(function () {
  const LOG_SIZE = 6;
  const token = decodeURIComponent(location.pathname.split("/")[2] || "");
  const base = "/view/" + encodeURIComponent(token);
  const byId = (id) => document.getElementById(id);
  let names = {};
  let fetching = false;
  let again = false;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function setConnection(state, text) {
    const node = byId("connection");
    node.dataset.state = state;
    node.textContent = text;
  }

  function nameOf(id) {
    return names[id] || "someone";
  }

  function remaining(ends) {
    switch (ends.ends) {
      case "end_of_round":
        return ends.remaining <= 1 ? "ends at the end of this round" : ends.remaining + " rounds left";
      case "start_of_turn":
        return "until the start of " + nameOf(ends.combatant_id) + "'s turn" +
          (ends.remaining > 1 ? " (" + ends.remaining + " turns)" : "");
      case "end_of_turn":
        return "until the end of " + nameOf(ends.combatant_id) + "'s turn" +
          (ends.remaining > 1 ? " (" + ends.remaining + " turns)" : "");
      default:
        return "until the fight ends";
    }
  }

  function renderHeader(enc) {
    byId("encounter-name").textContent = enc.name;
    document.title = enc.name + " – round " + enc.round;
    byId("round").textContent = enc.status === "setup" ? "setup" : String(enc.round);
    const current = byId("current");
    const currentName = byId("current-name");
    if (enc.status === "ended") {
      currentName.textContent = "The fight is over";
      current.dataset.empty = "true";
    } else if (enc.current_turn) {
      currentName.textContent = enc.current_turn.name;
      current.dataset.empty = "false";
    } else {
      currentName.textContent = enc.status === "setup" ? "Not started" : "Between turns";
      current.dataset.empty = "true";
    }
  }

  function renderOrder(enc) {
    const list = byId("turn-order");
    const combatants = {};
    enc.combatants.forEach((c) => { combatants[c.id] = c; });
    const effectsOn = {};
    enc.effects.forEach((e) => {
      if (e.target_id) (effectsOn[e.target_id] = effectsOn[e.target_id] || []).push(e);
    });
    const current = enc.current_turn ? enc.current_turn.combatant_id : null;
    const items = enc.turn_order.map((slot) => {
      const c = combatants[slot.combatant_id] || {};
      const item = el("li");
      const isCurrent = slot.combatant_id === current;
      if (isCurrent) item.setAttribute("aria-current", "true");
      if (slot.defeated) item.classList.add("defeated");
      if (slot.acted) item.classList.add("acted");
      const init = el("span", "init", String(slot.initiative));
      init.setAttribute("aria-label", "initiative " + slot.initiative);
      const name = el("span", "name", slot.name);
      if (c.side) name.appendChild(el("span", "side", c.side));
      const tags = el("span", "tags");
      if (isCurrent) tags.appendChild(el("span", "tag now", "▶ Now"));
      if (slot.simultaneous) tags.appendChild(el("span", "tag", "= tied"));
      if (slot.defeated) tags.appendChild(el("span", "tag", "✗ defeated"));
      else if (c.delaying) tags.appendChild(el("span", "tag", "⏸ holding"));
      else if (slot.acted && !isCurrent) tags.appendChild(el("span", "tag", "✓ acted"));
      if (c.surprised && enc.round <= 1) tags.appendChild(el("span", "tag", "! surprised"));
      (effectsOn[slot.combatant_id] || []).forEach((e) => {
        tags.appendChild(el("span", "tag effect", e.name));
      });
      item.append(init, name, tags);
      // Public combatants only: the server sends a status to viewers for nothing else.
      if (c.status) item.appendChild(el("span", "status", c.status.summary));
      return item;
    });
    list.replaceChildren(...items);
    byId("order-empty").hidden = items.length > 0;
  }

  function renderEffects(enc) {
    const items = enc.effects.map((e) => {
      const item = el("li");
      item.appendChild(el("span", "effect-name", e.name));
      if (e.target_id) item.appendChild(document.createTextNode(" on " + nameOf(e.target_id)));
      item.appendChild(el("span", "left", remaining(e.ends)));
      return item;
    });
    byId("effects").replaceChildren(...items);
    byId("effects-empty").hidden = items.length > 0;
  }

  function render(enc) {
    names = {};
    enc.combatants.forEach((c) => { names[c.id] = c.name; });
    renderHeader(enc);
    renderOrder(enc);
    renderEffects(enc);
  }

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(base + "/encounter", { cache: "no-store", credentials: "omit" });
      if (response.status === 404) {
        setConnection("lost", "This link no longer works.");
        return;
      }
      if (response.ok) render(await response.json());
    } catch (error) {
      setConnection("lost", "Reconnecting…");
    } finally {
      fetching = false;
      if (again) { again = false; refresh(); }
    }
  }

  // Newest first; only the added line is announced (aria-relevant="additions").
  function addToLog(event) {
    const list = byId("log");
    list.prepend(el("li", "", event.summary));
    while (list.children.length > LOG_SIZE) list.lastElementChild.remove();
  }

  function follow() {
    const stream = new EventSource(base + "/stream");
    stream.onopen = () => setConnection("live", "Live");
    stream.onerror = () => {
      if (stream.readyState === EventSource.CLOSED) {
        setConnection("lost", "Disconnected; reloading…");
        setTimeout(() => location.reload(), 5000);
      } else {
        setConnection("lost", "Reconnecting…");
      }
    };
    stream.onmessage = (message) => {
      try { addToLog(JSON.parse(message.data)); } catch (error) { /* not an event */ }
      refresh();
    };
  }

  document.addEventListener("DOMContentLoaded", () => {
    refresh();
    follow();
  });
})();
