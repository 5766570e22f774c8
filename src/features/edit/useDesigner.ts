import { useActorRef, useSelector } from '@xstate/react';
import { Canvas, type FabricObject, type TPointerEventInfo } from 'fabric';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { isApiFailure } from '@workers/api';
import { OZON_IMAGE_RULES } from '@contract/edit';
import {
  designerMachine,
  DRAWING_TOOLS,
  selectTool,
  type ChangeKind,
  type DesignerTool,
  type LoadFontsInput,
  type OpenDesignInput,
  type OpenDesignOutput,
  type SaveDesignInput,
  type SaveDesignOutput,
} from '@machines/designerMachine';
import { useDataClient } from '@/app/dataClient';
import { createElement, exportSnapshot, loadSnapshot, newId, snapshotOf, thumbnailOf, tryOpen, type DesignObject, type ElementKind } from './canvas';
import { DEFAULT_FONT, fontsInSnapshot, loadFont } from './fonts';

export type Size = { width: number; height: number };

export const INITIAL_SIZE: Size = { width: 1000, height: 1000 };
export const EMPTY_SNAPSHOT = JSON.stringify({ version: '6.9.1', objects: [], background: '#ffffff', ...INITIAL_SIZE });

/** A refusal the page shows before anything is sent (Ozon's rules on a stored image). */
export class RefusedError extends Error {}

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const EXTENSION = { png: 'png', jpeg: 'jpg', svg: 'svg', json: 'json' } as const;

export type DesignerTexts = { element: { heading: string; body: string; badge: string }; untitled: string };

/**
 * The designer's live parts: the fabric canvas, the editor machine with its actors given (server calls through the
 * worker, exports, fonts), and the bridge between them: canvas edits become `designer.change` snapshots, undo, redo
 * and opened designs come back as `designer.apply`.
 */
export function useDesigner(texts: DesignerTexts) {
  const client = useDataClient();
  const canvasRef = useRef<Canvas | null>(null);
  const sizeRef = useRef<Size>(INITIAL_SIZE);
  const applying = useRef(false);
  const [size, setSizeState] = useState<Size>(INITIAL_SIZE);
  const [zoom, setZoomState] = useState(0.6);
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const textsRef = useRef(texts);
  textsRef.current = texts;

  const machine = useMemo(
    () =>
      designerMachine.provide({
        actors: {
          saveDesign: fromPromise<SaveDesignOutput, SaveDesignInput>(async ({ input }) => {
            const name = input.design.name || textsRef.current.untitled;
            if (input.target !== 'server') {
              download(await exportSnapshot(input.snapshot, input.target), `${name}.${EXTENSION[input.target]}`);
              return;
            }
            const { width, height } = JSON.parse(input.snapshot) as Size;
            const thumbnail = await thumbnailOf(input.snapshot).catch(() => '');
            const saved = await client.edit.saveDesign({ ...(input.design.id ? { id: input.design.id } : {}), name, width, height, json: input.snapshot, thumbnail });
            return { design: { id: saved.id, name: saved.name } };
          }),
          openDesign: fromPromise<OpenDesignOutput, OpenDesignInput>(async ({ input }) => {
            const design = await client.edit.design(input.id);
            await Promise.all(fontsInSnapshot(design.json).map((family) => loadFont(family, '')));
            await tryOpen(design.json);
            return { snapshot: design.json, design: { id: design.id, name: design.name } };
          }),
          loadFonts: fromPromise<void, LoadFontsInput>(({ input }) => loadFont(input.family, input.text)),
        },
      }),
    [client],
  );
  const actor = useActorRef(machine, { input: { snapshot: EMPTY_SNAPSHOT } });
  const tool = useSelector(actor, selectTool);
  const toolRef = useRef<DesignerTool>(tool);
  toolRef.current = tool;

  const applyZoom = useCallback((canvas: Canvas, next: number, design: Size) => {
    canvas.setZoom(next);
    canvas.setDimensions({ width: Math.round(design.width * next), height: Math.round(design.height * next) });
    canvas.requestRenderAll();
  }, []);

  const setZoom = useCallback(
    (next: number) => {
      const clamped = Math.min(4, Math.max(0.05, next));
      setZoomState(clamped);
      if (canvasRef.current) applyZoom(canvasRef.current, clamped, sizeRef.current);
    },
    [applyZoom],
  );

  /** Records the canvas as it is now as one step of the history. */
  const commit = useCallback(
    (kind: ChangeKind) => {
      const canvas = canvasRef.current;
      if (!canvas || applying.current) return;
      actor.send({ type: 'designer.change', snapshot: snapshotOf(canvas, sizeRef.current), kind });
      bump();
    },
    [actor, bump],
  );

  const setSize = useCallback(
    (next: Size, record = true) => {
      sizeRef.current = next;
      setSizeState(next);
      if (canvasRef.current) applyZoom(canvasRef.current, zoom, next);
      if (record) commit('resize');
    },
    [applyZoom, commit, zoom],
  );

  /** Shows a snapshot from the history or the server; the canvas's own events are not new changes meanwhile. */
  const apply = useCallback(
    async (snapshot: string) => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      applying.current = true;
      try {
        canvas.discardActiveObject();
        const next = await loadSnapshot(canvas, snapshot);
        sizeRef.current = next;
        setSizeState(next);
        applyZoom(canvas, canvas.getZoom(), next);
      } finally {
        applying.current = false;
        bump();
      }
    },
    [applyZoom, bump],
  );

  useEffect(() => {
    const subscription = actor.on('designer.apply', (event) => void apply(event.snapshot));
    return () => subscription.unsubscribe();
  }, [actor, apply]);

  /** Mounts fabric on the page's <canvas>; returns the cleanup. */
  const mount = useCallback(
    (element: HTMLCanvasElement, scroller: HTMLElement) => {
      const canvas = new Canvas(element, { preserveObjectStacking: true, backgroundColor: '#ffffff', selectionColor: 'rgba(22,119,255,0.1)', selectionBorderColor: '#1677ff' });
      canvasRef.current = canvas;
      const fit = Math.min(1, (scroller.clientWidth - 48) / sizeRef.current.width, (scroller.clientHeight - 48) / sizeRef.current.height);
      const initialZoom = Number.isFinite(fit) && fit > 0.05 ? fit : 0.6;
      setZoomState(initialZoom);
      applyZoom(canvas, initialZoom, sizeRef.current);

      const selected = () => {
        actor.send({ type: 'designer.select', ids: canvas.getActiveObjects().map((o) => (o as DesignObject).id ?? '') });
        bump();
      };
      canvas.on('selection:created', selected);
      canvas.on('selection:updated', selected);
      canvas.on('selection:cleared', selected);
      canvas.on('object:modified', () => commit('modify'));
      canvas.on('text:editing:exited', () => commit('modify'));

      let panFrom: { x: number; y: number; left: number; top: number } | null = null;
      canvas.on('mouse:down', (info: TPointerEventInfo) => {
        const current = toolRef.current;
        const event = info.e as MouseEvent;
        if (current === 'pan') {
          panFrom = { x: event.clientX, y: event.clientY, left: scroller.scrollLeft, top: scroller.scrollTop };
          return;
        }
        if (!DRAWING_TOOLS.includes(current)) return;
        const point = canvas.getScenePoint(event);
        const kind: ElementKind = current === 'text' ? 'heading' : (current as ElementKind);
        const object = createElement(kind, point, textsRef.current.element, DEFAULT_FONT);
        canvas.add(object);
        canvas.setActiveObject(object);
        commit('add');
      });
      canvas.on('mouse:move', (info: TPointerEventInfo) => {
        if (!panFrom) return;
        const event = info.e as MouseEvent;
        scroller.scrollLeft = panFrom.left - (event.clientX - panFrom.x);
        scroller.scrollTop = panFrom.top - (event.clientY - panFrom.y);
      });
      canvas.on('mouse:up', () => {
        panFrom = null;
      });
      bump();
      return () => {
        canvasRef.current = null;
        void canvas.dispose();
      };
    },
    [actor, applyZoom, bump, commit],
  );

  // The pan tool moves the view, not objects.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const panning = tool === 'pan';
    canvas.selection = !panning && !DRAWING_TOOLS.includes(tool);
    canvas.skipTargetFind = panning || DRAWING_TOOLS.includes(tool);
    canvas.defaultCursor = panning ? 'grab' : DRAWING_TOOLS.includes(tool) ? 'crosshair' : 'default';
  }, [tool]);

  const add = useCallback(
    (object: FabricObject) => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      if (!(object as DesignObject).id) object.set({ id: newId() } as never);
      canvas.add(object);
      canvas.setActiveObject(object);
      canvas.requestRenderAll();
      commit('add');
    },
    [commit],
  );

  /** Stores the design as a PNG among the user's images; refused here when Ozon would refuse its size. */
  const storeImage = useCallback(
    async (snapshot: string, name: string) => {
      const { width, height } = sizeRef.current;
      if (Math.min(width, height) < OZON_IMAGE_RULES.minSide || Math.max(width, height) > OZON_IMAGE_RULES.maxSide) throw new RefusedError('size');
      const blob = await exportSnapshot(snapshot, 'png');
      if (blob.size > OZON_IMAGE_RULES.maxBytes) throw new RefusedError('bytes');
      return client.edit.upload(blob, `${name}.png`);
    },
    [client],
  );

  return { actor, canvasRef, size, setSize, zoom, setZoom, version, bump, commit, mount, add, storeImage, sizeRef };
}

export function failureText(error: unknown): string | null {
  return isApiFailure(error) ? error.message : null;
}
