import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { FlowGraph, FlowState, FlowTransition } from './graph';

/** A statechart laid out: every state's box (absolute and parent-relative) and every transition's route. */
export type LaidOutState = FlowState & { x: number; y: number; absX: number; absY: number; width: number; height: number; lines: string[] };
export type LaidOutTransition = FlowTransition & {
  /** One polyline per target, in absolute coordinates. */
  routes: { targetId: string; points: { x: number; y: number }[] }[];
  label: string;
  labelX: number;
  labelY: number;
};
export type Layout = { width: number; height: number; states: LaidOutState[]; transitions: LaidOutTransition[] };

const CHAR_WIDTH = 7.2;
const LINE = 18;

export function transitionLabel(transition: FlowTransition): string {
  return transition.guard ? `${transition.display} [${transition.guard}]` : transition.display;
}

/** What a state's box lists under its name: invoked actors, then the events it handles without leaving. */
export function stateLines(state: FlowState, internal: readonly FlowTransition[]): string[] {
  return [...state.invokes.map((invoke) => `invoke ${invoke.src}`), ...internal.map((transition) => `⟲ ${transitionLabel(transition)}`)];
}

function stateSize(state: FlowState, lines: readonly string[]): { width: number; height: number } {
  const all = [state.key, ...lines];
  const width = Math.max(90, ...all.map((line) => line.length * CHAR_WIDTH + 24));
  return { width, height: 18 + lines.length * LINE + LINE };
}

const elk = new ELK();

/**
 * Where a transition's label goes: on the longest segment of its route, a little past its start. Labels given to ELK
 * as dummy nodes made the charts several times wider (the session machine 8,980 px against 892), so ELK lays out the
 * states and routes alone and the labels sit on their routes.
 */
function labelPoint(points: readonly { x: number; y: number }[]): { x: number; y: number } {
  let best = { x: 0, y: 0 };
  let longest = -1;
  for (let index = 1; index < points.length; index += 1) {
    const from = points[index - 1]!;
    const to = points[index]!;
    const length = Math.abs(to.x - from.x) + Math.abs(to.y - from.y);
    if (length > longest) {
      longest = length;
      best = { x: from.x + (to.x - from.x) * 0.5 + 4, y: from.y + (to.y - from.y) * 0.5 - 14 };
    }
  }
  return best;
}

/**
 * Lays a statechart out with ELK's layered algorithm: compound and parallel states contain their children, every
 * transition is routed orthogonally and labelled on its route. Deterministic for a given graph.
 */
export async function layoutGraph(graph: FlowGraph): Promise<Layout> {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const children = new Map<string | null, FlowState[]>();
  for (const state of graph.states) {
    const list = children.get(state.parentId) ?? [];
    list.push(state);
    children.set(state.parentId, list);
  }
  // Transitions that stay in their state (actions only) are listed in its box rather than drawn as loops.
  const internal = new Map<string, FlowTransition[]>();
  for (const transition of graph.transitions) {
    if (transition.targetIds.length > 0) continue;
    internal.set(transition.sourceId, [...(internal.get(transition.sourceId) ?? []), transition]);
  }
  const linesOf = new Map(
    graph.states.map((state) => {
      const lines = stateLines(state, internal.get(state.id) ?? []);
      // The root's box also names the actors the machine spawns from its actions.
      return [state.id, state.parentId === null ? [...graph.spawns.map((name) => `spawn ${name}`), ...lines] : lines];
    }),
  );
  const toElk = (state: FlowState): ElkNode => {
    const kids = children.get(state.id) ?? [];
    const lines = linesOf.get(state.id) ?? [];
    const size = stateSize(state, lines);
    return kids.length === 0
      ? { id: state.id, ...size }
      : {
          id: state.id,
          layoutOptions: { 'elk.padding': `[top=${18 + LINE * (1 + lines.length)},left=12,bottom=12,right=12]` },
          children: kids.map(toElk),
        };
  };
  const root = graph.states.find((state) => state.parentId === null);
  if (!root) return { width: 0, height: 0, states: [], transitions: [] };

  const edges: ElkExtendedEdge[] = [];
  for (const transition of graph.transitions) {
    transition.targetIds.forEach((targetId, index) => {
      if (!byId.has(targetId)) return;
      edges.push({
        id: `${transition.id}>${index}`,
        sources: [transition.sourceId],
        targets: [targetId],
      });
    });
  }

  const laid: ElkNode = await elk.layout({
    id: '__root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '14',
      'elk.spacing.nodeNode': '40',
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'PARENT',
    },
    children: [toElk(root)],
    edges,
  });

  const states: LaidOutState[] = [];
  const walk = (node: ElkNode, offsetX: number, offsetY: number) => {
    const state = byId.get(node.id);
    const x = node.x ?? 0;
    const y = node.y ?? 0;
    if (state) states.push({ ...state, x, y, absX: offsetX + x, absY: offsetY + y, width: node.width ?? 0, height: node.height ?? 0, lines: linesOf.get(state.id) ?? [] });
    for (const child of node.children ?? []) walk(child, offsetX + x, offsetY + y);
  };
  for (const child of laid.children ?? []) walk(child, 0, 0);

  const edgeById = new Map((laid.edges ?? []).map((edge) => [edge.id, edge as ElkExtendedEdge]));
  const transitions: LaidOutTransition[] = graph.transitions.map((transition) => {
    const routes = transition.targetIds.flatMap((targetId, index) => {
      const edge = edgeById.get(`${transition.id}>${index}`);
      const section = edge?.sections?.[0];
      if (!section) return [];
      return [{ targetId, points: [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] }];
    });
    const at = labelPoint(routes[0]?.points ?? []);
    return { ...transition, routes, label: transitionLabel(transition), labelX: at.x, labelY: at.y };
  });
  return { width: laid.width ?? 0, height: laid.height ?? 0, states, transitions };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char);
}

/** The laid-out chart as a standalone SVG document (the flows page's export). */
export function layoutToSvg(layout: Layout, active: ReadonlySet<string> = new Set()): string {
  const parts: string[] = [];
  for (const state of layout.states) {
    const on = state.parentId !== null && active.has(state.path);
    parts.push(
      `<rect x="${state.absX}" y="${state.absY}" width="${state.width}" height="${state.height}" rx="6" fill="${on ? '#e6f4ff' : '#fff'}" stroke="${on ? '#1677ff' : '#8c8c8c'}" stroke-width="${on ? 2 : 1}"${state.type === 'parallel' ? ' stroke-dasharray="6 3"' : state.parentId === null ? ' stroke-dasharray="2 3"' : ''}/>`,
      `<text x="${state.absX + 10}" y="${state.absY + 16}" font-size="12" font-weight="600">${escapeXml(state.initial ? `● ${state.key}` : state.key)}</text>`,
      ...state.lines.map((line, index) => `<text x="${state.absX + 10}" y="${state.absY + 16 + LINE * (index + 1)}" font-size="11" fill="#595959">${escapeXml(line)}</text>`),
    );
  }
  for (const transition of layout.transitions) {
    for (const route of transition.routes) {
      parts.push(`<polyline points="${route.points.map((point) => `${point.x},${point.y}`).join(' ')}" fill="none" stroke="#595959" marker-end="url(#arrow)"/>`);
    }
    if (transition.routes.length > 0) {
      parts.push(`<text x="${transition.labelX}" y="${transition.labelY + 12}" font-size="11" fill="#262626" paint-order="stroke" stroke="#fff" stroke-width="3">${escapeXml(transition.label)}</text>`);
    }
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}" font-family="sans-serif">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#595959"/></marker></defs>',
    ...parts,
    '</svg>',
  ].join('\n');
}
