import { el, replaceChildren } from './dom.js';

/** What a confirmation shows. */
export interface Confirmation {
  readonly title: string;
  /** Lines describing exactly what will happen (shown as text). */
  readonly lines: readonly string[];
  /** The label of the button that goes ahead. */
  readonly confirmLabel: string;
  /** Whether the action ends or removes something (its button is red). */
  readonly destructive: boolean;
  /** For what cannot be undone: a text the user must type before the button is enabled. */
  readonly typeToConfirm?: string;
}

/** Shows the page's confirmation dialog; resolves `true` only when the user confirmed. */
export function confirmAction(confirmation: Confirmation): Promise<boolean> {
  const dialog = document.getElementById('confirm') as HTMLDialogElement;
  const part = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  part('confirm-title').textContent = confirmation.title;
  replaceChildren(part('confirm-body'), ...confirmation.lines.map((line) => el('p', {}, line)));
  const ok = part<HTMLButtonElement>('confirm-ok');
  ok.textContent = confirmation.confirmLabel;
  ok.className = confirmation.destructive ? 'danger' : 'primary';
  const typedLabel = part('confirm-typed-label');
  const typed = part<HTMLInputElement>('confirm-typed');
  typed.value = '';
  const expected = confirmation.typeToConfirm;
  typedLabel.hidden = expected === undefined;
  part('confirm-typed-expected').textContent = expected ?? '';
  ok.disabled = expected !== undefined;
  typed.oninput = () => {
    ok.disabled = expected !== undefined && typed.value !== expected;
  };
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok' && !ok.disabled), {
      once: true,
    });
  });
}
