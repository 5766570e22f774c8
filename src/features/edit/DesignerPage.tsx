import {
  AimOutlined,
  BorderOutlined,
  CloudUploadOutlined,
  CopyrightOutlined,
  DownloadOutlined,
  DragOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FolderOpenOutlined,
  FontSizeOutlined,
  LineOutlined,
  LockOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
  UnlockOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { useSelector } from '@xstate/react';
import { Alert, App as AntApp, Button, Card, ColorPicker, Divider, Drawer, Dropdown, Empty, Input, InputNumber, Modal, Popconfirm, Segmented, Select, Slider, Space, Spin, Switch, Tabs, Tag, Tooltip, Typography, Upload } from 'antd';
import type { FabricObject } from 'fabric';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CANVAS_MAX_SIDE, CANVAS_MIN_SIDE, type DesignSummary } from '@contract/edit';
import {
  DESIGNER_TOOLS,
  selectCanRedo,
  selectCanUndo,
  selectDesign,
  selectIsDirty,
  selectIsOpening,
  selectIsSaving,
  selectLoadingFont,
  selectProblem,
  selectTool,
  type DesignerTool,
  type SaveTarget,
} from '@machines/designerMachine';
import { useDataClient } from '@/app/dataClient';
import {
  ActiveSelection,
  align,
  applyFilters,
  backgroundPicture,
  createElement,
  createPicture,
  createSvg,
  distribute,
  exportSnapshot,
  FabricImage,
  filtersOf,
  Group,
  groupSelection,
  linearGradient,
  newId,
  pictureDataUrl,
  setShadow,
  snapshotOf,
  Textbox,
  thumbnailOf,
  ungroupSelection,
  type Alignment,
  type DesignObject,
  type ElementKind,
  type ImageFilters,
} from './canvas';
import { DEFAULT_FONT, FONTS } from './fonts';
import { buildLayout, CANVAS_SIZES, LAYOUTS, type LayoutKey, type LayoutTexts } from './templates';
import { failureText, RefusedError, useDesigner, type Size } from './useDesigner';
import { PublishDrawer } from './PublishDrawer';
import type { DesignPicture } from './publishAction';
import { WatermarkDrawer } from './WatermarkDrawer';
import './designer.css';

type Designer = ReturnType<typeof useDesigner>;

const TOOL_ICONS: Record<DesignerTool, React.ReactNode> = {
  select: <AimOutlined />,
  pan: <DragOutlined />,
  text: <FontSizeOutlined />,
  rect: <BorderOutlined />,
  ellipse: <span className="designer-glyph">◯</span>,
  triangle: <span className="designer-glyph">△</span>,
  line: <LineOutlined />,
};
const ELEMENTS: ElementKind[] = ['heading', 'body', 'rect', 'roundRect', 'ellipse', 'triangle', 'line', 'star', 'arrow', 'badge'];
const GRID = 20;
const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The design's centre, where inserted elements land. */
const centreOf = (size: Size) => ({ x: size.width / 2, y: size.height / 2 });

/**
 * /edit/edit-image: the poster designer. A seller builds a main image or a rich-content picture from a template, with
 * text (Chinese, Latin and Cyrillic fonts), shapes, pictures and SVG, then exports it or stores it for a product;
 * designs are saved on the server and opened again. The editor's state is the designer machine; this page is the
 * canvas and the panels around it.
 */
export function DesignerPage() {
  const { t } = useTranslation('edit');
  const { message, modal } = AntApp.useApp();
  const elementTexts = useMemo(() => ({ heading: t('elementTexts.heading'), body: t('elementTexts.body'), badge: t('elementTexts.badge') }), [t]);
  const designer = useDesigner({ element: elementTexts, untitled: t('untitled') });
  const { actor, canvasRef, mount, size, zoom, setZoom } = designer;
  const canvasElement = useRef<HTMLCanvasElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [grid, setGrid] = useState(false);
  const [snap, setSnap] = useState(false);
  const [nameDialog, setNameDialog] = useState<{ name: string; asNew: boolean } | null>(null);
  const [designsOpen, setDesignsOpen] = useState(false);
  const [watermarksOpen, setWatermarksOpen] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [publishThumbnail, setPublishThumbnail] = useState<string | null>(null);
  const clipboard = useRef<FabricObject | null>(null);

  const tool = useSelector(actor, selectTool);
  const canUndo = useSelector(actor, selectCanUndo);
  const canRedo = useSelector(actor, selectCanRedo);
  const dirty = useSelector(actor, selectIsDirty);
  const saving = useSelector(actor, selectIsSaving);
  const opening = useSelector(actor, selectIsOpening);
  const loadingFont = useSelector(actor, selectLoadingFont);
  const problem = useSelector(actor, selectProblem);
  const design = useSelector(actor, selectDesign);

  useEffect(() => {
    if (!canvasElement.current || !scroller.current) return;
    return mount(canvasElement.current, scroller.current);
  }, [mount]);

  // Snapping to the grid while an object moves.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onMoving = ({ target }: { target: FabricObject }) => {
      if (!snap) return;
      target.set({ left: Math.round((target.left ?? 0) / GRID) * GRID, top: Math.round((target.top ?? 0) / GRID) * GRID });
    };
    canvas.on('object:moving', onMoving);
    return () => {
      canvas.off('object:moving', onMoving);
    };
  }, [canvasRef, snap, designer.version]);

  useEffect(() => {
    const subscription = actor.on('designer.saved', (event) => void message.success(event.target === 'server' ? t('saved') : t('exported')));
    return () => subscription.unsubscribe();
  }, [actor, message, t]);

  const save = useCallback(
    (target: SaveTarget) => {
      if (target === 'server' && !design.id) {
        setNameDialog({ name: design.name || t('untitled'), asNew: false });
        return;
      }
      actor.send({ type: 'designer.save', target });
    },
    [actor, design, t],
  );

  const copyImage = useCallback(async () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    try {
      const blob = await exportSnapshot(snapshotOf(canvas, designer.sizeRef.current), 'png');
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
      void message.success(t('copySucceeded'));
    } catch {
      void message.error(t('copyFailed'));
    }
  }, [canvasRef, designer.sizeRef, message, t]);

  const storeImage = useCallback(async () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    try {
      const image = await designer.storeImage(snapshotOf(canvas, designer.sizeRef.current), design.name || t('untitled'));
      void message.success(t('stored', { width: image.width, height: image.height }));
    } catch (error) {
      if (error instanceof RefusedError) void message.error(t(error.message === 'size' ? 'refusedSize' : 'refusedBytes'));
      else void message.error(failureText(error) ?? t('failed'));
    }
  }, [canvasRef, design.name, designer, message, t]);

  const nameRef = useRef(design.name);
  nameRef.current = design.name;
  /** The design as it is on the canvas when the publish machine asks for it. */
  const designPicture = useMemo<DesignPicture>(
    () => ({
      render: async (format) => {
        const canvas = canvasRef.current;
        if (!canvas) throw new Error('no canvas');
        return exportSnapshot(snapshotOf(canvas, designer.sizeRef.current), format);
      },
      size: () => designer.sizeRef.current,
      name: () => nameRef.current,
    }),
    [canvasRef, designer.sizeRef],
  );
  const openPublish = useCallback(() => {
    const canvas = canvasRef.current;
    setPublishThumbnail(null);
    setPublishOpen(true);
    if (canvas) void thumbnailOf(snapshotOf(canvas, designer.sizeRef.current), 220).then(setPublishThumbnail, () => setPublishThumbnail(null));
  }, [canvasRef, designer.sizeRef]);

  useShortcuts(designer, clipboard, save);

  const problemText =
    problem?.kind === 'fontsFailed'
      ? t('fontsFailed')
      : problem?.kind === 'openFailed'
        ? `${t('openFailed')}${problem.reason ? `: ${problem.reason}` : ''}`
        : problem?.kind === 'saveFailed'
          ? t('saveFailed', { reason: problem.reason ?? t('failed') })
          : null;

  return (
    <div className="designer" data-testid="designer">
      <div className="designer-toolbar">
        <Segmented
          value={tool}
          onChange={(value) => actor.send({ type: 'designer.tool', tool: value as DesignerTool })}
          options={DESIGNER_TOOLS.map((key) => ({ value: key, icon: TOOL_ICONS[key], title: t(`tools.${key}`), label: <span className="designer-sr">{t(`tools.${key}`)}</span> }))}
        />
        <Divider type="vertical" />
        <Tooltip title={t('undo')}>
          <Button icon={<UndoOutlined />} disabled={!canUndo} onClick={() => actor.send({ type: 'designer.undo' })} aria-label={t('undo')} />
        </Tooltip>
        <Tooltip title={t('redo')}>
          <Button icon={<RedoOutlined />} disabled={!canRedo} onClick={() => actor.send({ type: 'designer.redo' })} aria-label={t('redo')} />
        </Tooltip>
        <Divider type="vertical" />
        <Button icon={<ZoomOutOutlined />} onClick={() => setZoom(zoom / 1.25)} aria-label={t('zoomOut')} />
        <span className="designer-zoom">{Math.round(zoom * 100)}%</span>
        <Button icon={<ZoomInOutlined />} onClick={() => setZoom(zoom * 1.25)} aria-label={t('zoomIn')} />
        <Button
          onClick={() => {
            const box = scroller.current;
            if (box) setZoom(Math.min((box.clientWidth - 48) / size.width, (box.clientHeight - 48) / size.height));
          }}
        >
          {t('fit')}
        </Button>
        <Divider type="vertical" />
        <Space size={4}>
          <Switch size="small" checked={grid} onChange={setGrid} aria-label={t('grid')} />
          {t('grid')}
          <Switch size="small" checked={snap} onChange={setSnap} aria-label={t('snap')} />
          {t('snap')}
        </Space>
        <div className="designer-toolbar-end">
          {(saving || dirty || design.id !== null) && <Tag color={dirty ? 'orange' : 'green'}>{saving ? t('saving') : dirty ? t('unsaved') : t('saved')}</Tag>}
          <Typography.Text strong className="designer-name">
            {design.name || t('untitled')}
          </Typography.Text>
          <Button icon={<FolderOpenOutlined />} onClick={() => setDesignsOpen(true)}>
            {t('designs')}
          </Button>
          <Button icon={<CloudUploadOutlined />} onClick={openPublish} data-testid="publish-open">
            {t('publish.open')}
          </Button>
          <Button icon={<CopyrightOutlined />} onClick={() => setWatermarksOpen(true)} data-testid="watermark-open">
            {t('wm.open')}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => save('server')}>
            {t('save')}
          </Button>
          <Dropdown
            menu={{
              items: [
                ...(['png', 'jpeg', 'svg', 'json'] as const).map((format) => ({ key: format, label: t(`exportAs.${format}`) })),
                { type: 'divider' as const },
                { key: 'saveAs', label: t('saveAs') },
                { key: 'store', label: t('storeImage') },
                { key: 'copy', label: t('copyImage') },
              ],
              onClick: ({ key }) => {
                if (key === 'saveAs') setNameDialog({ name: design.id ? t('copyName', { name: design.name }) : design.name || t('untitled'), asNew: true });
                else if (key === 'store') void storeImage();
                else if (key === 'copy') void copyImage();
                else actor.send({ type: 'designer.save', target: key as SaveTarget });
              },
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="designer-export">
              {t('export')}
            </Button>
          </Dropdown>
        </div>
      </div>
      {loadingFont && <Alert type="info" showIcon message={t('fontsLoading')} className="designer-alert" />}
      {problemText && <Alert type="error" showIcon closable message={problemText} onClose={() => actor.send({ type: 'designer.dismiss' })} className="designer-alert" />}
      <div className="designer-body">
        <Card size="small" className="designer-left">
          <LeftPanel designer={designer} />
        </Card>
        <div className="designer-stage" ref={scroller}>
          <Spin spinning={opening} tip={t('loadingData')}>
            <div className="designer-paper" style={{ width: size.width * zoom, height: size.height * zoom }}>
              <canvas ref={canvasElement} data-testid="designer-canvas" />
              {grid && <div className="designer-grid" style={{ backgroundSize: `${GRID * zoom}px ${GRID * zoom}px` }} />}
            </div>
          </Spin>
        </div>
        <Card size="small" className="designer-right">
          <PropertiesPanel designer={designer} />
        </Card>
      </div>
      <Typography.Text type="secondary" className="designer-hint">
        {t('shortcuts')}
      </Typography.Text>
      <Modal
        open={nameDialog !== null}
        title={nameDialog?.asNew ? t('saveAs') : t('save')}
        onCancel={() => setNameDialog(null)}
        onOk={() => {
          const name = nameDialog?.name.trim() ?? '';
          if (!name) {
            void message.warning(t('nameRequired'));
            return;
          }
          actor.send({ type: 'designer.save', target: 'server', name, asNew: nameDialog?.asNew ?? false });
          setNameDialog(null);
        }}
      >
        <Input aria-label={t('name')} value={nameDialog?.name ?? ''} maxLength={80} onChange={(e) => setNameDialog({ name: e.target.value, asNew: nameDialog?.asNew ?? false })} />
      </Modal>
      <WatermarkDrawer open={watermarksOpen} onClose={() => setWatermarksOpen(false)} />
      <PublishDrawer open={publishOpen} onClose={() => setPublishOpen(false)} design={designPicture} thumbnail={publishThumbnail} fontsLoading={loadingFont !== null} />
      <DesignsDrawer
        open={designsOpen}
        onClose={() => setDesignsOpen(false)}
        onOpen={(id) => {
          const go = () => {
            actor.send({ type: 'designer.open', id });
            setDesignsOpen(false);
          };
          if (dirty) modal.confirm({ title: t('unsaved'), content: t('applyLayoutConfirm'), onOk: go });
          else go();
        }}
      />
    </div>
  );
}

// ------------------------------------------------------------------------------------------------------------------

function useShortcuts(designer: Designer, clipboard: React.RefObject<FabricObject | null>, save: (target: SaveTarget) => void) {
  const { actor, canvasRef, commit, setZoom, zoom } = designer;
  useEffect(() => {
    let held: DesignerTool | null = null;
    const onKey = (event: KeyboardEvent) => {
      const canvas = canvasRef.current;
      const target = event.target as HTMLElement | null;
      if (!canvas || target?.closest('input, textarea, [contenteditable="true"], .ant-select, .ant-modal')) return;
      if (!document.querySelector('[data-testid="designer"]')?.checkVisibility?.()) return;
      const active = canvas.getActiveObject();
      if (active instanceof Textbox && active.isEditing) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const done = () => event.preventDefault();
      if (mod && key === 'z') {
        actor.send({ type: event.shiftKey ? 'designer.redo' : 'designer.undo' });
        return done();
      }
      if (mod && key === 'y') {
        actor.send({ type: 'designer.redo' });
        return done();
      }
      if (mod && key === 's') {
        save('server');
        return done();
      }
      if (mod && key === 'c' && active) {
        void active.clone(['id', 'name']).then((copy) => (clipboard.current = copy));
        return done();
      }
      if (mod && (key === 'v' || key === 'd')) {
        const source = key === 'd' ? active : clipboard.current;
        if (!source) return;
        void source.clone(['name']).then((copy: FabricObject) => {
          canvas.discardActiveObject();
          copy.set({ left: (copy.left ?? 0) + 20, top: (copy.top ?? 0) + 20, id: newId() } as never);
          if (copy instanceof ActiveSelection) {
            copy.canvas = canvas;
            copy.forEachObject((object) => {
              object.set({ id: newId() } as never);
              canvas.add(object);
            });
            copy.setCoords();
          } else canvas.add(copy);
          if (key === 'v') clipboard.current?.set({ left: (clipboard.current.left ?? 0) + 20, top: (clipboard.current.top ?? 0) + 20 });
          canvas.setActiveObject(copy);
          canvas.requestRenderAll();
          commit('add');
        });
        return done();
      }
      if (mod && key === 'g') {
        if (event.shiftKey ? ungroupSelection(canvas).length > 0 : groupSelection(canvas)) commit('group');
        return done();
      }
      if ((key === 'delete' || key === 'backspace') && active) {
        canvas.remove(...canvas.getActiveObjects());
        canvas.discardActiveObject();
        commit('remove');
        return done();
      }
      if (key.startsWith('arrow') && active) {
        const step = event.shiftKey ? 10 : 1;
        const dx = key === 'arrowleft' ? -step : key === 'arrowright' ? step : 0;
        const dy = key === 'arrowup' ? -step : key === 'arrowdown' ? step : 0;
        active.set({ left: (active.left ?? 0) + dx, top: (active.top ?? 0) + dy });
        active.setCoords();
        canvas.requestRenderAll();
        commit('modify');
        return done();
      }
      if (!mod && (key === '+' || key === '=')) return setZoom(zoom * 1.25);
      if (!mod && key === '-') return setZoom(zoom / 1.25);
      if (key === ' ' && !held) {
        held = actor.getSnapshot().context.tool;
        actor.send({ type: 'designer.tool', tool: 'pan' });
        return done();
      }
      const tools: Record<string, DesignerTool> = { v: 'select', h: 'pan', t: 'text', r: 'rect', o: 'ellipse', l: 'line' };
      if (!mod && tools[key]) actor.send({ type: 'designer.tool', tool: tools[key] });
    };
    const onUp = (event: KeyboardEvent) => {
      if (event.key === ' ' && held) {
        actor.send({ type: 'designer.tool', tool: held });
        held = null;
      }
    };
    const onWheel = (event: WheelEvent) => {
      if (!(event.ctrlKey || event.metaKey) || !(event.target as HTMLElement).closest('.designer-stage')) return;
      event.preventDefault();
      setZoom(zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onUp);
    window.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onUp);
      window.removeEventListener('wheel', onWheel);
    };
  }, [actor, canvasRef, clipboard, commit, save, setZoom, zoom]);
}

// ------------------------------------------------------------------------------------------------------------------

function LeftPanel({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  return (
    <Tabs
      size="small"
      items={[
        { key: 'templates', label: t('panels.templates'), children: <TemplatesTab designer={designer} /> },
        { key: 'elements', label: t('panels.elements'), children: <ElementsTab designer={designer} /> },
        { key: 'background', label: t('panels.background'), children: <BackgroundTab designer={designer} /> },
        { key: 'layers', label: t('panels.layers'), children: <LayersTab designer={designer} /> },
      ]}
    />
  );
}

function TemplatesTab({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  const { canvasRef, actor, setSize, size } = designer;
  const [width, setWidth] = useState<number | null>(size.width);
  const [height, setHeight] = useState<number | null>(size.height);
  useEffect(() => {
    setWidth(size.width);
    setHeight(size.height);
  }, [size]);
  const texts = t('layoutTexts', { returnObjects: true }) as LayoutTexts;

  const applyLayout = (layout: LayoutKey, next: Size) => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setSize(next, false);
    const snapshot = buildLayout(canvas, layout, next, texts, DEFAULT_FONT);
    actor.send({ type: 'designer.font', family: DEFAULT_FONT, text: JSON.stringify(texts) });
    actor.send({ type: 'designer.change', snapshot, kind: 'template' });
    designer.bump();
  };

  return (
    <div className="designer-panel">
      <Typography.Text type="secondary">{t('panels.size')}</Typography.Text>
      <div className="designer-sizes">
        {CANVAS_SIZES.map((s) => (
          <Button key={s.key} size="small" type={s.width === size.width && s.height === size.height ? 'primary' : 'default'} onClick={() => setSize({ width: s.width, height: s.height })}>
            {t(`sizes.${s.key}`)}
            <span className="designer-size-px">
              {s.width}×{s.height}
            </span>
          </Button>
        ))}
      </div>
      <Space.Compact block>
        <InputNumber aria-label={t('width')} min={CANVAS_MIN_SIDE} max={CANVAS_MAX_SIDE} value={width} onChange={setWidth} addonBefore={t('width')} />
        <InputNumber aria-label={t('height')} min={CANVAS_MIN_SIDE} max={CANVAS_MAX_SIDE} value={height} onChange={setHeight} addonBefore={t('height')} />
      </Space.Compact>
      <Button block size="small" disabled={!width || !height} onClick={() => width && height && setSize({ width: Math.round(width), height: Math.round(height) })}>
        {t('applySize')}
      </Button>
      <Divider />
      <Typography.Text type="secondary">{t('applyLayoutConfirm')}</Typography.Text>
      <div className="designer-layouts">
        {LAYOUTS.map((layout) => (
          <Button key={layout} data-testid={`layout-${layout}`} onClick={() => applyLayout(layout, size)}>
            {t(`layouts.${layout}`)}
          </Button>
        ))}
      </div>
    </div>
  );
}

function ElementsTab({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  const { message } = AntApp.useApp();
  const { add, size, actor } = designer;
  const elementTexts = { heading: t('elementTexts.heading'), body: t('elementTexts.body'), badge: t('elementTexts.badge') };
  const fit = { width: size.width * 0.8, height: size.height * 0.8 };

  const insertPicture = async (file: File | undefined) => {
    if (!file) return void message.warning(t('selectFile'));
    if (!PICTURE_TYPES.includes(file.type)) return void message.error(t('notImageFile'));
    try {
      add(await createPicture(await pictureDataUrl(file), file.name, fit, centreOf(size)));
    } catch {
      void message.error(t('notImageFile'));
    }
  };
  const insertSvg = async (file: File | undefined) => {
    if (!file) return void message.warning(t('selectFile'));
    if (!file.name.toLowerCase().endsWith('.svg') && file.type !== 'image/svg+xml') return void message.error(t('notSvgFile'));
    try {
      add(await createSvg(await file.text(), file.name, fit, centreOf(size)));
    } catch {
      void message.error(t('badSvg'));
    }
  };

  return (
    <div className="designer-panel">
      <div className="designer-elements">
        {ELEMENTS.map((kind) => (
          <Button
            key={kind}
            data-testid={`element-${kind}`}
            onClick={() => {
              add(createElement(kind, centreOf(size), elementTexts, DEFAULT_FONT));
              if (kind === 'heading' || kind === 'body' || kind === 'badge') actor.send({ type: 'designer.font', family: DEFAULT_FONT, text: Object.values(elementTexts).join('') });
            }}
          >
            {t(`elements.${kind}`)}
          </Button>
        ))}
      </div>
      <Upload accept={PICTURE_TYPES.join(',')} showUploadList={false} beforeUpload={(file) => (void insertPicture(file), false)}>
        <Button block data-testid="insert-picture">
          {t('insertPicture')}
        </Button>
      </Upload>
      <Upload accept=".svg,image/svg+xml" showUploadList={false} beforeUpload={(file) => (void insertSvg(file), false)}>
        <Button block>{t('insertSvg')}</Button>
      </Upload>
    </div>
  );
}

function BackgroundTab({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  const { message } = AntApp.useApp();
  const { canvasRef, commit, size } = designer;
  const [mode, setMode] = useState<'color' | 'gradient' | 'picture'>('color');
  const [color, setColor] = useState('#ffffff');
  const [from, setFrom] = useState('#fff1f0');
  const [to, setTo] = useState('#ff7875');
  const [angle, setAngle] = useState(90);
  const [picture, setPicture] = useState<File | null>(null);

  const apply = async () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    if (mode === 'color') canvas.backgroundColor = color;
    if (mode === 'gradient') canvas.backgroundColor = linearGradient(from, to, angle, size);
    if (mode === 'picture') {
      if (!picture) return void message.warning(t('selectBackground'));
      canvas.backgroundImage = await backgroundPicture(await pictureDataUrl(picture), size);
    }
    canvas.requestRenderAll();
    commit('background');
  };

  return (
    <div className="designer-panel">
      <Segmented block value={mode} onChange={(value) => setMode(value as typeof mode)} options={(['color', 'gradient', 'picture'] as const).map((m) => ({ value: m, label: t(`background.${m}`) }))} />
      {mode === 'color' && <ColorPicker value={color} showText onChange={(value) => setColor(value.toHexString())} />}
      {mode === 'gradient' && (
        <>
          <Space>
            <ColorPicker value={from} onChange={(value) => setFrom(value.toHexString())} />
            <ColorPicker value={to} onChange={(value) => setTo(value.toHexString())} />
          </Space>
          <Typography.Text type="secondary">{t('background.angle')}</Typography.Text>
          <Slider min={0} max={360} value={angle} onChange={setAngle} />
        </>
      )}
      {mode === 'picture' && (
        <>
          <Upload accept={PICTURE_TYPES.join(',')} showUploadList={false} beforeUpload={(file) => (setPicture(file), false)}>
            <Button block>{picture ? picture.name : t('background.choose')}</Button>
          </Upload>
          <Button
            block
            onClick={() => {
              const canvas = canvasRef.current;
              if (!canvas?.backgroundImage) return;
              canvas.backgroundImage = undefined;
              canvas.requestRenderAll();
              commit('background');
            }}
          >
            {t('background.remove')}
          </Button>
        </>
      )}
      <Button type="primary" block onClick={() => void apply()}>
        {t('background.apply')}
      </Button>
    </div>
  );
}

function LayersTab({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  const { canvasRef, commit, version } = designer;
  const [renaming, setRenaming] = useState<string | null>(null);
  const dragged = useRef<number | null>(null);
  const canvas = canvasRef.current;
  // Top of the stack first, as in every layers panel.
  const objects = useMemo(() => (canvas ? [...canvas.getObjects()].reverse() : []), [canvas, version]); // eslint-disable-line react-hooks/exhaustive-deps
  const active = new Set(canvas?.getActiveObjects() ?? []);
  if (!canvas || objects.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layers.empty')} />;
  const count = objects.length;

  const drop = (event: DragEvent, row: number) => {
    event.preventDefault();
    const from = dragged.current;
    dragged.current = null;
    if (from === null || from === row) return;
    canvas.moveObjectTo(objects[from]!, count - 1 - row);
    canvas.requestRenderAll();
    commit('order');
  };

  return (
    <div className="designer-layers" role="list">
      <Typography.Text type="secondary">{t('layers.dragHint')}</Typography.Text>
      {objects.map((object, row) => {
        const o = object as DesignObject;
        const locked = o.selectable === false;
        return (
          <div
            key={o.id ?? row}
            role="listitem"
            draggable
            onDragStart={() => (dragged.current = row)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => drop(event, row)}
            className={`designer-layer${active.has(object) ? ' is-active' : ''}`}
            onClick={() => {
              if (locked || !o.visible) return;
              canvas.setActiveObject(object);
              canvas.requestRenderAll();
              designer.bump();
            }}
          >
            {renaming === o.id ? (
              <Input
                size="small"
                autoFocus
                defaultValue={o.name}
                onBlur={(e) => {
                  o.set({ name: e.target.value.trim() || o.name } as never);
                  setRenaming(null);
                  commit('modify');
                }}
                onPressEnter={(e) => (e.target as HTMLInputElement).blur()}
              />
            ) : (
              <span className="designer-layer-name" title={t('layers.rename')} onDoubleClick={() => setRenaming(o.id ?? null)}>
                {o.name || object.type}
              </span>
            )}
            <Tooltip title={o.visible ? t('layers.hide') : t('layers.show')}>
              <Button
                size="small"
                type="text"
                icon={o.visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
                aria-label={o.visible ? t('layers.hide') : t('layers.show')}
                onClick={(event) => {
                  event.stopPropagation();
                  object.set({ visible: !o.visible });
                  if (!object.visible) canvas.discardActiveObject();
                  canvas.requestRenderAll();
                  commit('modify');
                }}
              />
            </Tooltip>
            <Tooltip title={locked ? t('layers.unlock') : t('layers.lock')}>
              <Button
                size="small"
                type="text"
                icon={locked ? <LockOutlined /> : <UnlockOutlined />}
                aria-label={locked ? t('layers.unlock') : t('layers.lock')}
                onClick={(event) => {
                  event.stopPropagation();
                  object.set({ selectable: locked, evented: locked, lockMovementX: !locked, lockMovementY: !locked, hasControls: locked });
                  if (!locked) canvas.discardActiveObject();
                  canvas.requestRenderAll();
                  commit('modify');
                }}
              />
            </Tooltip>
          </div>
        );
      })}
    </div>
  );
}

// ------------------------------------------------------------------------------------------------------------------

function PropertiesPanel({ designer }: { designer: Designer }) {
  const { t } = useTranslation('edit');
  const { canvasRef, commit, actor, size } = designer;
  const canvas = canvasRef.current;
  const objects = canvas?.getActiveObjects() ?? [];
  const active = canvas?.getActiveObject();
  if (!canvas || !active) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('props.none')} />;

  const change = (kind: 'style' | 'modify' | 'order' | 'group', work: () => void) => {
    work();
    active.setCoords();
    canvas.requestRenderAll();
    commit(kind);
  };
  const text = active instanceof Textbox ? active : null;
  const image = active instanceof FabricImage ? active : null;
  const shadow = active.shadow;
  const fill = typeof active.fill === 'string' ? active.fill : null;

  return (
    <div className="designer-panel designer-props">
      {objects.length > 1 && <Tag>{t('props.selected', { count: objects.length })}</Tag>}
      {fill !== null && !image && (
        <Field label={t('props.fill')}>
          <ColorPicker value={fill} showText onChangeComplete={(value) => change('style', () => active.set({ fill: value.toHexString() }))} />
        </Field>
      )}
      {active.type === 'line' && (
        <Field label={t('props.stroke')}>
          <ColorPicker value={String(active.stroke ?? '#000')} onChangeComplete={(value) => change('style', () => active.set({ stroke: value.toHexString() }))} />
        </Field>
      )}
      {text && (
        <>
          <Field label={t('props.font')}>
            <Select
              size="small"
              value={text.fontFamily}
              style={{ width: '100%' }}
              options={FONTS.map((f) => ({ value: f.family, label: <span style={{ fontFamily: f.family }}>{`${f.family} · ${f.scripts}`}</span> }))}
              onChange={(family: string) => {
                const sub = actor.on('designer.fontReady', (event) => {
                  if (event.family !== family) return;
                  sub.unsubscribe();
                  change('style', () => {
                    text.set({ fontFamily: family });
                    text.initDimensions();
                  });
                });
                actor.send({ type: 'designer.font', family, text: text.text });
              }}
            />
          </Field>
          <Field label={t('props.fontSize')}>
            <InputNumber size="small" min={6} max={600} value={text.fontSize} onChange={(value) => value && change('style', () => text.set({ fontSize: value }))} />
          </Field>
          <Space wrap>
            <Button size="small" type={text.fontWeight === 'bold' ? 'primary' : 'default'} onClick={() => change('style', () => text.set({ fontWeight: text.fontWeight === 'bold' ? 'normal' : 'bold' }))}>
              <b>{t('props.bold')}</b>
            </Button>
            <Button size="small" type={text.fontStyle === 'italic' ? 'primary' : 'default'} onClick={() => change('style', () => text.set({ fontStyle: text.fontStyle === 'italic' ? 'normal' : 'italic' }))}>
              <i>{t('props.italic')}</i>
            </Button>
            <Button size="small" type={text.underline ? 'primary' : 'default'} onClick={() => change('style', () => text.set({ underline: !text.underline }))}>
              <u>{t('props.underline')}</u>
            </Button>
          </Space>
          <Segmented
            size="small"
            value={text.textAlign}
            onChange={(value) => change('style', () => text.set({ textAlign: value as string }))}
            options={[
              { value: 'left', label: t('props.alignLeft') },
              { value: 'center', label: t('props.alignCenter') },
              { value: 'right', label: t('props.alignRight') },
            ]}
          />
          <Field label={t('props.lineHeight')}>
            <Slider min={0.8} max={3} step={0.05} value={text.lineHeight} onChangeComplete={(value) => change('style', () => text.set({ lineHeight: value }))} />
          </Field>
        </>
      )}
      <Field label={t('props.opacity')}>
        <Slider min={0} max={1} step={0.01} defaultValue={active.opacity} key={`o${designer.version}`} onChangeComplete={(value) => change('style', () => active.set({ opacity: value }))} />
      </Field>
      <Field label={t('props.shadow')}>
        <Switch
          size="small"
          checked={!!shadow}
          onChange={(on) => change('style', () => setShadow(active, on ? { color: 'rgba(0,0,0,0.35)', blur: 20, offsetX: 8, offsetY: 8 } : null))}
        />
      </Field>
      {shadow && (
        <Field label={t('props.shadowBlur')}>
          <Slider min={0} max={80} defaultValue={shadow.blur} key={`s${designer.version}`} onChangeComplete={(value) => change('style', () => setShadow(active, { color: String(shadow.color), blur: value, offsetX: shadow.offsetX, offsetY: shadow.offsetY }))} />
        </Field>
      )}
      {image && <ImageFilterFields image={image} onChange={(work) => change('style', work)} />}
      <Divider plain>{t('props.arrange')}</Divider>
      <Space wrap size={4}>
        <Button size="small" onClick={() => change('modify', () => active.set({ flipX: !active.flipX }))}>{t('props.flipX')}</Button>
        <Button size="small" onClick={() => change('modify', () => active.set({ flipY: !active.flipY }))}>{t('props.flipY')}</Button>
        <Button size="small" onClick={() => change('order', () => canvas.bringObjectForward(active))}>{t('props.forward')}</Button>
        <Button size="small" onClick={() => change('order', () => canvas.sendObjectBackwards(active))}>{t('props.backward')}</Button>
        <Button size="small" onClick={() => change('order', () => canvas.bringObjectToFront(active))}>{t('props.front')}</Button>
        <Button size="small" onClick={() => change('order', () => canvas.sendObjectToBack(active))}>{t('props.back')}</Button>
        {objects.length > 1 && <Button size="small" onClick={() => groupSelection(canvas) && commit('group')}>{t('props.group')}</Button>}
        {active instanceof Group && !(active instanceof ActiveSelection) && <Button size="small" onClick={() => ungroupSelection(canvas).length && commit('group')}>{t('props.ungroup')}</Button>}
      </Space>
      <Divider plain>{t('props.align')}</Divider>
      <Space wrap size={4}>
        {(['left', 'centerX', 'right', 'top', 'centerY', 'bottom'] as Alignment[]).map((how) => (
          <Button key={how} size="small" onClick={() => change('modify', () => alignSelection(canvas, how, size))}>
            {t(`props.${how}`)}
          </Button>
        ))}
        {objects.length > 2 && (
          <>
            <Button size="small" onClick={() => change('modify', () => distributeSelection(canvas, 'x'))}>{t('props.distributeX')}</Button>
            <Button size="small" onClick={() => change('modify', () => distributeSelection(canvas, 'y'))}>{t('props.distributeY')}</Button>
          </>
        )}
      </Space>
      <Divider />
      <Button
        danger
        block
        size="small"
        onClick={() => {
          canvas.remove(...objects);
          canvas.discardActiveObject();
          canvas.requestRenderAll();
          commit('remove');
        }}
      >
        {t('props.remove')}
      </Button>
    </div>
  );
}

/** Aligning or distributing a multiple selection works on its objects in design coordinates, then reselects them. */
function withSelectionObjects(canvas: NonNullable<Designer['canvasRef']['current']>, work: (objects: FabricObject[]) => void) {
  const objects = canvas.getActiveObjects();
  if (objects.length > 1) canvas.discardActiveObject();
  work(objects);
  if (objects.length > 1) canvas.setActiveObject(new ActiveSelection(objects, { canvas }));
}
function alignSelection(canvas: NonNullable<Designer['canvasRef']['current']>, how: Alignment, size: Size) {
  withSelectionObjects(canvas, (objects) => align(objects, how, size));
}
function distributeSelection(canvas: NonNullable<Designer['canvasRef']['current']>, axis: 'x' | 'y') {
  withSelectionObjects(canvas, (objects) => distribute(objects, axis));
}

function ImageFilterFields({ image, onChange }: { image: InstanceType<typeof FabricImage>; onChange: (work: () => void) => void }) {
  const { t } = useTranslation('edit');
  const current = filtersOf(image);
  const set = (patch: Partial<ImageFilters>) => onChange(() => applyFilters(image, { ...current, ...patch }));
  return (
    <>
      <Divider plain>{t('props.filters')}</Divider>
      <Space wrap size={4}>
        {(['grayscale', 'sepia', 'invert'] as const).map((name) => (
          <Button key={name} size="small" type={current[name] ? 'primary' : 'default'} onClick={() => set({ [name]: !current[name] })}>
            {t(`props.${name}`)}
          </Button>
        ))}
      </Space>
      <Field label={t('props.brightness')}>
        <Slider min={-1} max={1} step={0.05} defaultValue={current.brightness} onChangeComplete={(value) => set({ brightness: value })} />
      </Field>
      <Field label={t('props.contrast')}>
        <Slider min={-1} max={1} step={0.05} defaultValue={current.contrast} onChangeComplete={(value) => set({ contrast: value })} />
      </Field>
      <Field label={t('props.blur')}>
        <Slider min={0} max={1} step={0.02} defaultValue={current.blur} onChangeComplete={(value) => set({ blur: value })} />
      </Field>
    </>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="designer-field">
      <Typography.Text type="secondary">{label}</Typography.Text>
      {children}
    </div>
  );
}

// ------------------------------------------------------------------------------------------------------------------

function DesignsDrawer({ open, onClose, onOpen }: { open: boolean; onClose: () => void; onOpen: (id: number) => void }) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const [list, setList] = useState<DesignSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setList(null);
    setError(null);
    client.edit.designs().then(setList, (e: unknown) => setError(failureText(e) ?? t('failed')));
  }, [client, t]);
  useEffect(() => {
    if (open) load();
  }, [open, load]);
  return (
    <Drawer open={open} onClose={onClose} title={t('designs')} size="default">
      {error ? (
        <Alert type="error" message={error} action={<Button onClick={load}>{t('open')}</Button>} />
      ) : list === null ? (
        <Spin tip={t('loadingData')}>
          <div style={{ height: 120 }} />
        </Spin>
      ) : list.length === 0 ? (
        <Empty description={t('noDesigns')} />
      ) : (
        <div className="designer-designs">
          {list.map((d) => (
            <Card
              key={d.id}
              size="small"
              hoverable
              cover={d.thumbnail ? <img alt={d.name} src={d.thumbnail} /> : undefined}
              actions={[
                <Button key="open" type="link" onClick={() => onOpen(d.id)}>
                  {t('open')}
                </Button>,
                <Popconfirm key="delete" title={t('deleteConfirm')} onConfirm={() => void client.edit.deleteDesign(d.id).then(load)}>
                  <Button type="link" danger>
                    {t('delete')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <Card.Meta title={d.name} description={`${d.width}×${d.height} · ${new Date(d.updatedAt).toLocaleString()}`} />
            </Card>
          ))}
        </div>
      )}
    </Drawer>
  );
}

