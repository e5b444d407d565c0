#!/usr/bin/env python3
"""Writes the request field tables of docs/rulesets/<id>.md from openapi/openapi.json.

Each ruleset doc holds one section between `<!-- field-tables:begin -->` and
`<!-- field-tables:end -->` (appended at the end when missing): a `<!-- fields: Schema -->` table
per typed stored operation of the ruleset (`POST /v1/encounters/{id}/<ruleset>/<operation>`),
with each field's type, bounds, whether it is required, and the first sentence of its
description. api/tests/vocabulary.rs checks every table against the spec, so rerun this after a
request changes:

    cargo run -q --bin skirmish -- openapi > openapi/openapi.json
    scripts/field-tables.py            # rewrite the tables
    scripts/field-tables.py --check    # exit 1 when a doc's tables differ from the spec
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = "<!-- field-tables:begin -->"
END = "<!-- field-tables:end -->"
DICE_FIELDS = {"seed", "rolls", "strict_rolls"}
# Fields whose schema says nothing of its own: what they mean on every ruleset route.
PLAIN_FIELDS = {
    "combatant_id": "The combatant acting (or, on damage, the one hurt): its id in the encounter.",
    "attacker_id": "The attacking combatant's id in the encounter.",
    "target_id": "The target's id in the encounter.",
    "target_ids": "The targets' ids in the encounter.",
}
RULESETS = ["adeva-d100", "arrgs", "cepheus-engine", "lur-asko", "spycraft2"]


def ref_name(schema):
    return schema["$ref"].rsplit("/", 1)[-1]


def bounds(schema):
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None and high is None:
        return ""
    return f" {'' if low is None else low}..{'' if high is None else high}"


def type_of(schema, schemas):
    """A short human name of a field's type: `CombatantId`, `integer 1..1000`, `[Weapon] ≤ 8`."""
    if "$ref" in schema:
        name = ref_name(schema)
        target = schemas.get(name, {})
        if target.get("type") in ("integer", "number"):
            return f"{target['type']}{bounds(target)}"
        return f"`{name}`"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            members = [m for m in schema[key] if m.get("type") != "null"]
            nullable = len(members) < len(schema[key])
            text = " or ".join(type_of(m, schemas) for m in members)
            return f"{text} or null" if nullable else text
    kind = schema.get("type")
    if isinstance(kind, list):
        nullable = "null" in kind
        rest = {**schema, "type": next((k for k in kind if k != "null"), "object")}
        return type_of(rest, schemas) + (" or null" if nullable else "")
    if kind == "array":
        most = f" ≤ {schema['maxItems']}" if "maxItems" in schema else ""
        return f"[{type_of(schema.get('items', {}), schemas)}]{most}"
    if "enum" in schema:
        return " \\| ".join(f"`{value}`" for value in schema["enum"])
    if kind in ("integer", "number"):
        return f"{kind}{bounds(schema)}"
    if kind == "string" and "maxLength" in schema:
        return f"string ≤ {schema['maxLength']} chars"
    return kind or "any"


def description(field, schema, schemas):
    text = schema.get("description") or PLAIN_FIELDS.get(field)
    if not text:
        for key in ("oneOf", "anyOf"):
            for member in schema.get(key, []):
                text = text or member.get("description")
                if not text and "$ref" in member:
                    text = schemas.get(ref_name(member), {}).get("description")
    if not text and "$ref" in schema:
        text = schemas.get(ref_name(schema), {}).get("description")
    if not text:
        return ""
    text = " ".join(text.split())
    sentence = re.split(r"(?<=\.)\s(?=[A-Z`(])", text, maxsplit=1)[0]
    return sentence.replace("|", "\\|")


def table(name, schemas):
    schema = schemas[name]
    if "oneOf" in schema and "properties" not in schema:
        return union_table(name, schema, schemas)
    required = set(schema.get("required", []))
    properties = schema.get("properties", {})
    shown = {f: s for f, s in properties.items() if f not in DICE_FIELDS} or properties
    rows = [
        f"<!-- fields: {name} -->",
        "",
        "| Field | Type | Required | Meaning |",
        "|---|---|---|---|",
    ]
    for field, spec in sorted(shown.items(), key=lambda kv: (kv[0] not in required, kv[0])):
        rows.append(
            f"| `{field}` | {type_of(spec, schemas)} | {'yes' if field in required else 'no'} | {description(field, spec, schemas)} |"
        )
    return "\n".join(rows)


def tag_of(member):
    """The (property, value) that names a union member: its one single-valued string enum."""
    for field, spec in member.get("properties", {}).items():
        values = spec.get("enum", [])
        if spec.get("type") == "string" and len(values) == 1:
            return field, values[0]
    return None, None


def union_table(name, schema, schemas):
    """A union (a request tagged by `action`, …): one row per field, naming the members using it."""
    members = [schemas[ref_name(m)] if "$ref" in m else m for m in schema["oneOf"]]
    tagged = [(tag_of(member), member) for member in members]
    everyone = len(tagged)
    fields = {}
    for (tag, value), member in tagged:
        for field, spec in member.get("properties", {}).items():
            if field in DICE_FIELDS or field == tag:
                continue
            entry = fields.setdefault(field, {"spec": spec, "in": [], "required": []})
            entry["in"].append(value)
            if field in member.get("required", []):
                entry["required"].append(value)
    tag = next((t for (t, _), _ in tagged if t), "kind")
    values = ", ".join(f"`{value}`" for (_, value), _ in tagged)
    rows = [
        f"`{tag}` names the {tag} (required): {values}.",
        "",
        f"<!-- fields: {name} -->",
        "",
        "| Field | Type | Required for | Sent with | Meaning |",
        "|---|---|---|---|---|",
    ]

    def which(values):
        if not values:
            return "—"
        return "every one" if len(values) == everyone else ", ".join(f"`{v}`" for v in values)

    rows.append(f"| `{tag}` | string | every one | every one | The {tag}, one of the names above. |")
    for field, entry in sorted(fields.items(), key=lambda kv: (-len(kv[1]["required"]), kv[0])):
        spec = entry["spec"]
        rows.append(
            f"| `{field}` | {type_of(spec, schemas)} | {which(entry['required'])} | {which(entry['in'])} | {description(field, spec, schemas)} |"
        )
    return "\n".join(rows)


def operations(spec, ruleset):
    prefix = f"/v1/encounters/{{id}}/{ruleset}/"
    found = []
    for path, item in sorted(spec["paths"].items()):
        if not path.startswith(prefix):
            continue
        body = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        if "$ref" in body.get("schema", {}):
            found.append((path, ref_name(body["schema"])))
    return found


def section(spec, ruleset):
    schemas = spec["components"]["schemas"]
    parts = [
        BEGIN,
        "## Request fields",
        "",
        "Written by `scripts/field-tables.py` from `openapi/openapi.json` and checked against it by",
        "`api/tests/vocabulary.rs`. Every body also takes `seed`, `rolls` and `strict_rolls` (see",
        "docs/dice.md); bounds are inclusive; the spec's own description is the full text.",
    ]
    for path, name in operations(spec, ruleset):
        parts += ["", f"### `POST {path}`", "", table(name, schemas)]
    parts.append(END)
    return "\n".join(parts)


def main():
    check = "--check" in sys.argv[1:]
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    stale = []
    for ruleset in RULESETS:
        doc = ROOT / "docs" / "rulesets" / f"{ruleset}.md"
        text = doc.read_text()
        fresh = section(spec, ruleset)
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            updated = head + fresh + tail
        else:
            updated = text.rstrip("\n") + "\n\n" + fresh + "\n"
        if updated != text:
            stale.append(str(doc.relative_to(ROOT)))
            if not check:
                doc.write_text(updated)
    if check and stale:
        print("field tables out of date (run scripts/field-tables.py): " + ", ".join(stale), file=sys.stderr)
        sys.exit(1)
    print(("stale: " if check else "written: ") + (", ".join(stale) or "none"))


if __name__ == "__main__":
    main()
