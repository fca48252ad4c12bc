"""The JSON layout of the checked-in scene files, shared by the generate.py scripts of scenes/,
scenes/seeds/ and scenes/box2d/ (scene format: docs/cli.md)."""
import json
import os


def write(folder, name, scene):
    """Writes scene (version 1 unless it says otherwise) to folder/name."""
    scene = {"version": 1, **scene}
    with open(os.path.join(folder, name), "w") as out:
        out.write(dump(scene) + "\n")


def dump(scene):
    """One body (and one joint, one vehicle) per line: readable, and diffs show which changed."""
    head = {k: v for k, v in scene.items() if k not in ("bodies", "joints", "vehicles")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "bodies": [')
    lines.append(",\n".join("    " + json.dumps(body) for body in scene["bodies"]))
    for key in ("joints", "vehicles"):
        if key in scene:
            lines.append("  ],")
            lines.append(f"  {json.dumps(key)}: [")
            lines.append(",\n".join("    " + json.dumps(item) for item in scene[key]))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines)
