import { Background, BaseEdge, Controls, Handle, Position, ReactFlow, type Edge, type EdgeProps, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Empty, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { FlowGraph } from './graph';
import { layoutGraph, type LaidOutState, type LaidOutTransition, type Layout } from './layout';

type StateData = { state: LaidOutState; active: boolean };
type EdgeData = { transition: LaidOutTransition; points: { x: number; y: number }[]; showLabel: boolean; active: boolean };

function StateNode({ data }: NodeProps<Node<StateData>>) {
  const { state, active } = data;
  return (
    <div
      className={`flow-state${active ? ' flow-state-active' : ''}${state.type === 'parallel' ? ' flow-state-parallel' : ''}${state.type === 'final' ? ' flow-state-final' : ''}`}
      data-state={state.path}
      data-active={active}
      style={{ width: state.width, height: state.height }}
    >
      <div className="flow-state-key">
        {state.initial ? <span className="flow-initial" title="initial" /> : null}
        {state.key}
        {state.type === 'final' ? ' ◉' : ''}
      </div>
      {/* React Flow draws an edge only between handles; the routes themselves come from ELK. */}
      <Handle type="target" position={Position.Top} className="flow-handle" isConnectable={false} />
      <Handle type="source" position={Position.Bottom} className="flow-handle" isConnectable={false} />
      {state.lines.map((line) => (
        <div key={line} className="flow-state-line">
          {line}
        </div>
      ))}
    </div>
  );
}

function RoutedEdge({ id, data, markerEnd }: EdgeProps<Edge<EdgeData>>) {
  if (!data) return null;
  const path = data.points.map((point, index) => `${index === 0 ? 'M' : 'L'} ${point.x} ${point.y}`).join(' ');
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ stroke: data.active ? '#1677ff' : '#8c8c8c', strokeWidth: data.active ? 2 : 1 }} />
      {data.showLabel ? (
        <text x={data.transition.labelX} y={data.transition.labelY + 12} className="flow-edge-label" data-event={data.transition.event}>
          {data.transition.label}
        </text>
      ) : null}
    </>
  );
}

const nodeTypes = { state: StateNode };
const edgeTypes = { routed: RoutedEdge };

/** A machine's statechart, laid out by ELK and drawn with React Flow; `active` paths are highlighted. */
export function StateChart({ graph, active, onLayout }: { graph: FlowGraph; active: ReadonlySet<string>; onLayout?: (layout: Layout) => void }) {
  const [layout, setLayout] = useState<{ machineId: string; layout: Layout } | null>(null);
  useEffect(() => {
    let current = true;
    void layoutGraph(graph).then((result) => {
      if (!current) return;
      setLayout({ machineId: graph.machineId, layout: result });
      onLayout?.(result);
    });
    return () => {
      current = false;
    };
  }, [graph, onLayout]);

  const { nodes, edges } = useMemo(() => {
    if (!layout || layout.machineId !== graph.machineId) return { nodes: [], edges: [] };
    const nodes: Node<StateData>[] = layout.layout.states.map((state) => ({
        id: state.id,
        type: 'state',
        position: state.parentId === null ? { x: state.absX, y: state.absY } : { x: state.x, y: state.y },
        ...(state.parentId ? { parentId: state.parentId } : {}),
        data: { state, active: active.has(state.path) },
        draggable: false,
        selectable: false,
        style: { width: state.width, height: state.height },
        className: state.parentId === null ? 'flow-root' : undefined,
      }));
    const pathOf = new Map(layout.layout.states.map((state) => [state.id, state.path]));
    const edges: Edge<EdgeData>[] = layout.layout.transitions.flatMap((transition) =>
      transition.routes.map((route, index) => ({
        id: `${transition.id}>${index}`,
        source: transition.sourceId,
        target: route.targetId,
        type: 'routed',
        markerEnd: { type: 'arrowclosed' as never, color: '#8c8c8c' },
        data: { transition, points: route.points, showLabel: index === 0, active: active.has(pathOf.get(transition.sourceId) ?? '\u0000') },
      })),
    );
    return { nodes, edges };
  }, [layout, graph.machineId, active]);

  if (!layout || layout.machineId !== graph.machineId) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (nodes.length === 0) return <Empty description={graph.machineId} />;
  // Opens on the whole chart, readable: a big machine is panned and zoomed rather than shrunk out of sight.
  return (
    <div className="flow-chart" data-machine={graph.machineId}>
      <ReactFlow
        key={graph.machineId}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        fitView
        fitViewOptions={{ minZoom: 0.45, maxZoom: 1 }}
        minZoom={0.05}
        nodesConnectable={false}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
