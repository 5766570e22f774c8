import { Avatar, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import type { ApplyKind, GroupOption } from '@contract/chatWidget';
import { Dialog } from '@/components/dialog/Dialog';
import type { ChatLang, Translate } from './translate';
import type { ApplyInfo } from './types';

export type ApplyDialogResult = { value: string; option: GroupOption | null };

type ApplyDialogProps = {
  kind: ApplyKind;
  info: ApplyInfo;
  open: boolean;
  t: Translate;
  lang: ChatLang;
  onConfirm: (result: ApplyDialogResult) => void;
  onCancel: () => void;
};

const TITLES = {
  applyFriend: 'applyFriendTitle',
  applyGroup: 'applyGroupTitle',
  confirmFriend: 'confirmFriendTitle',
  confirmGroup: 'confirmGroupTitle',
} as const;

/** The four apply/confirm dialogs; Escape and outside click never close them (spec §4). */
export function ApplyDialog({ kind, info, open, t, lang, onConfirm, onCancel }: ApplyDialogProps) {
  const options = info.options ?? [];
  const [value, setValue] = useState('');
  const [optionKey, setOptionKey] = useState<string | number | undefined>(options[0]?.key);
  const optionsKey = options[0]?.key;
  useEffect(() => {
    if (open) {
      setValue('');
      setOptionKey(optionsKey);
    }
  }, [open, optionsKey]);

  const choosesGroup = kind === 'applyFriend' || kind === 'confirmFriend';
  const asksMessage = kind === 'applyFriend' || kind === 'applyGroup';
  const greeting = kind === 'confirmFriend' ? t('greeting') : kind === 'confirmGroup' ? t('groupGreeting') : '';

  return (
    <Dialog
      open={open}
      title={t(TITLES[kind])}
      width={420}
      lang={lang}
      closeOnEscape={false}
      closeOnOutsideClick={false}
      confirmText={t('confirm')}
      cancelText={t('cancel')}
      onConfirm={() => onConfirm({ value: asksMessage ? value : greeting, option: options.find((o) => o.key === optionKey) ?? null })}
      onCancel={onCancel}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12 }}>
        <Avatar src={info.avatar}>{info.name.slice(0, 1)}</Avatar>
        <strong>{info.name}</strong>
      </div>
      {choosesGroup && (
        <Select
          aria-label={t('chooseGroup')}
          style={{ width: '100%', marginBottom: 8 }}
          placeholder={t('chooseGroup')}
          value={optionKey}
          onChange={setOptionKey}
          options={options.map((o) => ({ label: o.label, value: o.key }))}
        />
      )}
      {asksMessage ? (
        <Input.TextArea
          aria-label={t('verification')}
          placeholder={t('verificationPlaceholder')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          rows={3}
        />
      ) : (
        <p>{greeting}</p>
      )}
    </Dialog>
  );
}
