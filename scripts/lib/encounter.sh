# Shared by the load and cost scripts (sourced, not run): `six_combatant_encounter BASE` creates
# the encounter they all measure — spycraft2, six combatants with initiative bonuses 1 to 6,
# initiative rolled with seed 1 — on the server at BASE and prints its id. Needs curl.

six_combatant_encounter() {
  local base="$1" json='Content-Type: application/json' encounter n
  encounter=$(curl -sf -X POST "$base/v1/encounters" -H "$json" -d '{"ruleset":"spycraft2","name":"Load"}' |
    grep -o '"id":"enc_[0-9a-f]*"' | head -1 | cut -d'"' -f4)
  for n in 1 2 3 4 5 6; do
    curl -sf -X POST "$base/v1/encounters/$encounter/combatants" -H "$json" \
      -d "{\"name\":\"C$n\",\"side\":\"s$((n % 2))\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null
  done
  curl -sf -X POST "$base/v1/encounters/$encounter/initiative" -H "$json" -d '{"seed":1}' >/dev/null
  echo "$encounter"
}
