import type {
  ActionName,
  ActionRequests,
  InstanceDetailJson,
  SessionInfo,
} from '../shared/api-types.js';
import { postAction } from './api-client.js';
import { confirmAction, type Confirmation } from './confirm-dialog.js';
import { el, replaceChildren } from './dom.js';

/** What the panel does after an action succeeded. */
export interface ActionOutcomes {
  /** The instance changed: read it again. */
  readonly changed: () => void;
  /** The instance is gone: leave its page. */
  readonly deleted: () => void;
}

/**
 * The actions on one instance: raise an event, enqueue a message, cancel, prune old executions,
 * delete. Each asks for confirmation first (saying exactly what it will do; deleting and pruning
 * also ask for the instance id to be typed), then reports the server's answer.
 */
export function actionsPanel(
  session: SessionInfo,
  instance: InstanceDetailJson,
  outcomes: ActionOutcomes,
): HTMLElement {
  const id = instance.instanceId;
  const result = el('div', { attributes: { role: 'status', 'aria-live': 'polite' } });
  const run = async <A extends ActionName>(
    name: A,
    request: ActionRequests[A],
    confirmation: Confirmation,
    after: () => void,
  ): Promise<void> => {
    if (!(await confirmAction(confirmation))) return;
    try {
      const answer = await postAction(session, name, request);
      replaceChildren(result, el('div', { class: 'done' }, answer.done));
      after();
    } catch (error) {
      replaceChildren(result, el('div', { class: 'error' }, (error as Error).message));
    }
  };
  const field = (label: string, input: HTMLElement) => el('label', {}, label, input);
  const input = (name: string, value = '') =>
    el('input', { attributes: { name, value, autocomplete: 'off' } });
  const textarea = (name: string) =>
    el('textarea', { attributes: { name, placeholder: 'JSON, e.g. {"approved": true}' } });

  const eventName = input('eventName');
  const eventData = textarea('eventData');
  const queueName = input('queueName');
  const queueData = textarea('queueData');
  const reason = input('reason');
  const keepLast = el('input', {
    attributes: { name: 'keepLast', type: 'number', min: '1', value: '1' },
  });
  const force = el('input', { attributes: { name: 'force', type: 'checkbox' } });

  const form = (
    title: string,
    controls: readonly HTMLElement[],
    button: string,
    danger: boolean,
    submit: () => Promise<void>,
  ) =>
    el(
      'form',
      {
        class: 'action',
        attributes: { 'data-action': title },
        onSubmit: (event) => {
          event.preventDefault();
          void submit();
        },
      },
      el('h2', {}, title),
      ...controls,
      el(
        'button',
        { class: danger ? 'danger' : 'primary', attributes: { type: 'submit' } },
        button,
      ),
    );

  return el(
    'section',
    { class: 'card', attributes: { 'aria-label': 'Actions' } },
    el('h2', {}, 'Actions'),
    el(
      'p',
      { class: 'muted' },
      'Each action is confirmed first and written to the dashboard’s log.',
    ),
    el(
      'div',
      { class: 'actions' },
      form(
        'Raise event',
        [field('Event name', eventName), field('Data (JSON)', eventData)],
        'Raise…',
        false,
        () =>
          run(
            'raise-event',
            { instanceId: id, eventName: eventName.value, data: eventData.value },
            {
              title: 'Raise an event',
              lines: [
                `Instance: ${id}`,
                `Event: ${eventName.value}`,
                `Data: ${eventData.value.trim() || 'null'}`,
              ],
              confirmLabel: 'Raise event',
              destructive: false,
            },
            outcomes.changed,
          ),
      ),
      form(
        'Enqueue message',
        [field('Queue', queueName), field('Message (JSON)', queueData)],
        'Enqueue…',
        false,
        () =>
          run(
            'enqueue-event',
            { instanceId: id, queueName: queueName.value, data: queueData.value },
            {
              title: 'Enqueue a message',
              lines: [
                `Instance: ${id}`,
                `Queue: ${queueName.value}`,
                `Message: ${queueData.value.trim() || 'null'}`,
              ],
              confirmLabel: 'Enqueue message',
              destructive: false,
            },
            outcomes.changed,
          ),
      ),
      form('Cancel', [field('Reason', reason)], 'Cancel instance…', true, () =>
        run(
          'cancel',
          { instanceId: id, reason: reason.value },
          {
            title: 'Cancel the instance',
            lines: [
              `Instance: ${id}`,
              'It fails as cancelled, and so do its running sub-orchestrations.',
              `Reason: ${reason.value || '(none)'}`,
            ],
            confirmLabel: 'Cancel instance',
            destructive: true,
          },
          outcomes.changed,
        ),
      ),
      form('Prune executions', [field('Keep the newest', keepLast)], 'Prune…', true, () =>
        run(
          'prune',
          { instanceId: id, keepLast: Number(keepLast.value) },
          {
            title: 'Prune old executions',
            lines: [
              `Instance: ${id}`,
              `Deletes every execution but the newest ${keepLast.value} (never the current one), with their histories.`,
            ],
            confirmLabel: 'Prune',
            destructive: true,
            typeToConfirm: id,
          },
          outcomes.changed,
        ),
      ),
      form(
        'Delete',
        [el('label', {}, el('span', {}, force, ' even while running'))],
        'Delete…',
        true,
        () =>
          run(
            'delete',
            { instanceId: id, force: force.checked },
            {
              title: 'Delete the instance',
              lines: [
                `Instance: ${id}`,
                'Deletes it with its sub-orchestrations, executions, histories, queued messages and key/values. This cannot be undone.',
              ],
              confirmLabel: 'Delete',
              destructive: true,
              typeToConfirm: id,
            },
            outcomes.deleted,
          ),
      ),
    ),
    result,
  );
}
