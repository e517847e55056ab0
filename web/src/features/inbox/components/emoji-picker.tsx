import { useEffect, useRef } from 'react';

const emojis = [
  '😀',
  '😃',
  '😄',
  '😁',
  '😆',
  '😅',
  '😂',
  '🙂',
  '😉',
  '😊',
  '😍',
  '😘',
  '😎',
  '🤩',
  '🤔',
  '😐',
  '😴',
  '😢',
  '😭',
  '😡',
  '😱',
  '🥳',
  '🤗',
  '🙏',
  '👍',
  '👎',
  '👏',
  '🙌',
  '👋',
  '💪',
  '🤝',
  '✌️',
  '❤️',
  '💚',
  '💙',
  '💛',
  '🔥',
  '✨',
  '🎉',
  '✅',
  '❌',
  '⚠️',
  '⭐',
  '📦',
  '🚚',
  '💰',
  '📞',
  '📅',
];

/** A small emoji grid (Ctrl/Cmd+E): arrow keys move, Enter picks, Esc closes. */
export function EmojiPicker({ onPick, onClose }: { onPick: (emoji: string) => void; onClose: () => void }) {
  const ref = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [onClose]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const move = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 8, ArrowUp: -8 }[event.key];
    if (move !== undefined) {
      event.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, index + move))]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <fieldset
      ref={ref}
      aria-label="Emojis"
      onKeyDown={onKeyDown}
      className="absolute bottom-full left-0 z-20 mb-2 grid w-72 grid-cols-8 gap-0.5 rounded-xl border border-border bg-surface p-2 shadow-pop"
    >
      {emojis.map((emoji) => (
        <button
          key={emoji}
          type="button"
          onClick={() => onPick(emoji)}
          className="flex size-8 items-center justify-center rounded-md text-lg hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={emoji}
        >
          {emoji}
        </button>
      ))}
    </fieldset>
  );
}
