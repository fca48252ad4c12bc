// Canvas drawing shared by the racing page and the scene player: a view (world metres, +y up, to
// canvas pixels, +y down), the canvas sized to its box at the display's pixel ratio, and carom's
// shapes and joints drawn from the records of carom.mjs (world.shapes(), world.joints()).

// A view: `center` (m) is drawn in the middle of the canvas, `scale` is device pixels per metre.
export class View {
  constructor(center = [0, 0], scale = 50) {
    this.center = center;
    this.scale = scale;
    this.width = 1;  // device pixels, set by fitCanvas
    this.height = 1;
  }

  toScreen(x, y) {
    return [this.width / 2 + (x - this.center[0]) * this.scale,
            this.height / 2 - (y - this.center[1]) * this.scale];
  }

  // Device pixels (as from canvasPoint) to world metres.
  toWorld(px, py) {
    return [this.center[0] + (px - this.width / 2) / this.scale,
            this.center[1] - (py - this.height / 2) / this.scale];
  }

  // Draw in world units from here on: a path built in metres lands where toScreen puts it.
  apply(ctx) {
    ctx.setTransform(this.scale, 0, 0, -this.scale,
                     this.width / 2 - this.center[0] * this.scale,
                     this.height / 2 + this.center[1] * this.scale);
  }

  // Centre and scale so the box [minX, minY, maxX, maxY] (m) fills the canvas, with a margin.
  fit(box, margin = 0.05) {
    const w = Math.max(box[2] - box[0], 1e-3), h = Math.max(box[3] - box[1], 1e-3);
    this.center = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
    this.scale = (1 - 2 * margin) * Math.min(this.width / w, this.height / h);
  }

  // The visible box in metres: [minX, minY, maxX, maxY].
  visible() {
    const hw = this.width / 2 / this.scale, hh = this.height / 2 / this.scale;
    return [this.center[0] - hw, this.center[1] - hh, this.center[0] + hw, this.center[1] + hh];
  }
}

// Size the canvas's pixel buffer to its CSS box at the display's pixel ratio, so lines stay
// sharp; returns true when the size changed.
export function fitCanvas(canvas, view) {
  const ratio = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const width = Math.max(1, Math.round(rect.width * ratio));
  const height = Math.max(1, Math.round(rect.height * ratio));
  view.width = width;
  view.height = height;
  if (canvas.width === width && canvas.height === height) return false;
  canvas.width = width;
  canvas.height = height;
  return true;
}

// A pointer event's position in the canvas's device pixels.
export function canvasPoint(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  return [(event.clientX - rect.left) * canvas.width / rect.width,
          (event.clientY - rect.top) * canvas.height / rect.height];
}

// 0xRRGGBB to a CSS color.
export function cssColor(rgb, alpha = 1) {
  const r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
  return alpha >= 1 ? `rgb(${r},${g},${b})` : `rgba(${r},${g},${b},${alpha})`;
}

// A box of half extents (hx, hy) at (x, y), turned by the rotation (c, s), as a closed path in
// world units (after view.apply).
export function boxPath(ctx, x, y, c, s, hx, hy) {
  const corners = [[hx, hy], [-hx, hy], [-hx, -hy], [hx, -hy]];
  ctx.beginPath();
  for (const [u, v] of corners) {
    ctx.lineTo(x + c * u - s * v, y + s * u + c * v);
  }
  ctx.closePath();
}

// Colors of the scene player's bodies, by type and state.
export const bodyColors = {
  static: '#7f8a94',
  kinematic: '#9a7fd0',
  dynamic: '#e8a23a',
  selected: '#4fb0ff',
};

// Awake dynamic bodies, by id, so neighbours differ.
export const dynamicColors = ['#e8a23a', '#e0605a', '#5aa0e0', '#62c07a', '#c07ad8', '#e8d04a', '#4ac8c8', '#f08a5a'];

// One shape record of world.shapes() (world coordinates), filled and outlined. fill null draws
// the outline only; the outline width is in device pixels.
export function drawShape(ctx, view, shape, fill, stroke, lineWidth = 1.5) {
  ctx.lineWidth = lineWidth / view.scale;
  ctx.strokeStyle = stroke;
  ctx.fillStyle = fill || 'transparent';
  ctx.beginPath();
  switch (shape.kind) {
    case 'circle': {
      ctx.arc(shape.x, shape.y, shape.radius, 0, 2 * Math.PI);
      // a radius line, so turning shows
      ctx.moveTo(shape.x, shape.y);
      ctx.lineTo(shape.x + shape.radius * Math.cos(shape.angle),
                 shape.y + shape.radius * Math.sin(shape.angle));
      break;
    }
    case 'polygon': {
      const p = shape.points;
      if (shape.radius > 0) {
        roundedPolygonPath(ctx, p, shape.radius);
      } else {
        for (let i = 0; i < p.length; i += 2) ctx.lineTo(p[i], p[i + 1]);
        ctx.closePath();
      }
      break;
    }
    case 'capsule': {
      const p = shape.points;
      capsulePath(ctx, p[0], p[1], p[2], p[3], shape.radius);
      break;
    }
    case 'segment': {
      const p = shape.points;
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(p[2], p[3]);
      if (fill) {
        ctx.strokeStyle = fill;
      }
      ctx.lineWidth = Math.max(lineWidth * 1.5, 2) / view.scale;
      ctx.stroke();
      return;
    }
    default:
      return;
  }
  if (fill && !shape.sensor) ctx.fill();
  if (shape.sensor) ctx.setLineDash([4 / view.scale, 3 / view.scale]);
  ctx.stroke();
  ctx.setLineDash([]);
}

// Two end centres and a radius: a rectangle with round ends.
function capsulePath(ctx, x1, y1, x2, y2, radius) {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  ctx.arc(x2, y2, radius, angle - Math.PI / 2, angle + Math.PI / 2);
  ctx.arc(x1, y1, radius, angle + Math.PI / 2, angle + 3 * Math.PI / 2);
  ctx.closePath();
}

// A convex polygon grown by `radius`: its edges pushed out along their normals, joined by arcs.
function roundedPolygonPath(ctx, p, radius) {
  const n = p.length / 2;
  let area = 0;
  for (let i = 0; i < n; ++i) {
    const j = (i + 1) % n;
    area += p[2 * i] * p[2 * j + 1] - p[2 * j] * p[2 * i + 1];
  }
  const turn = area >= 0 ? 1 : -1;  // counter-clockwise: outward normal is (dy, -dx)
  for (let i = 0; i < n; ++i) {
    const j = (i + 1) % n;
    const ax = p[2 * i], ay = p[2 * i + 1], bx = p[2 * j], by = p[2 * j + 1];
    const length = Math.hypot(bx - ax, by - ay) || 1;
    const nx = turn * (by - ay) / length, ny = -turn * (bx - ax) / length;
    const start = Math.atan2(ny, nx);
    const k = (j + 1) % n;
    const cx = p[2 * k], cy = p[2 * k + 1];
    const length2 = Math.hypot(cx - bx, cy - by) || 1;
    const mx = turn * (cy - by) / length2, my = -turn * (cx - bx) / length2;
    ctx.lineTo(ax + radius * nx, ay + radius * ny);
    ctx.lineTo(bx + radius * nx, by + radius * ny);
    ctx.arc(bx, by, radius, start, Math.atan2(my, mx), turn < 0);
  }
  ctx.closePath();
}

// Joint records of world.joints(): a line between the two anchors, a dot on each.
export function drawJoints(ctx, view, joints, color = '#58c9d6') {
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 1.5 / view.scale;
  for (const joint of joints) {
    const [ax, ay] = joint.anchorA, [bx, by] = joint.anchorB;
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.stroke();
    for (const [x, y] of [[ax, ay], [bx, by]]) {
      ctx.beginPath();
      ctx.arc(x, y, 3 / view.scale, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

// A light grid every `step` metres under the scene, with the axes darker.
export function drawGrid(ctx, view, color = 'rgba(255,255,255,0.06)') {
  const [x0, y0, x1, y1] = view.visible();
  let step = 1;
  while (step * view.scale < 24) step *= 10;
  while (step * view.scale > 240) step /= 10;
  ctx.lineWidth = 1 / view.scale;
  ctx.strokeStyle = color;
  ctx.beginPath();
  for (let x = Math.floor(x0 / step) * step; x <= x1; x += step) {
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y1);
  }
  for (let y = Math.floor(y0 / step) * step; y <= y1; y += step) {
    ctx.moveTo(x0, y);
    ctx.lineTo(x1, y);
  }
  ctx.stroke();
  ctx.strokeStyle = 'rgba(255,255,255,0.16)';
  ctx.beginPath();
  ctx.moveTo(x0, 0);
  ctx.lineTo(x1, 0);
  ctx.moveTo(0, y0);
  ctx.lineTo(0, y1);
  ctx.stroke();
}
