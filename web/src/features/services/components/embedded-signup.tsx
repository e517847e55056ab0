/**
 * 'Conectar com a Meta' (docs/product.md#screens, ADR-0217): in 'Nova
 * conexão' for WhatsApp (API oficial), where the operator configured a Meta app. Meta's window (the
 * SDK's `FB.login`) lets the business pick or create its WhatsApp Business account and number; its
 * session message (`WA_EMBEDDED_SIGNUP`, from Meta's origin only) names them and the login's answer
 * carries a code, which the server exchanges and connects with. Cancelling in Meta's window, or a
 * refused code, leaves a pt-BR message here and nothing connected.
 */
import { useEffect, useRef, useState } from 'react';
import { embeddedSignupTexts as texts } from '#contracts/embedded-signup.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useConnectEmbeddedSignup } from '#web/features/services/api/embedded-signup.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { launchSignup, loadFacebookSdk } from '../meta/facebook-sdk.ts';
import { readSignupMessage, type SignupMessage } from '../meta/signup-message.ts';

/** How long the code may wait for Meta's session message (which names the WABA) before the run is given up. */
export const sessionInfoWaitMs = 10_000;

type Phase = { step: 'idle' } | { step: 'waiting' } | { step: 'connecting' } | { step: 'failed'; message: string };

/** A server refusal as the admin reads it: the field detail's pt-BR text, else the catalogue's. */
function refusalText(error: unknown): string {
  if (error instanceof ApiError) return error.details[0]?.message ?? error.message;
  return texts.sdkFailed;
}

function messageText(message: SignupMessage): string | null {
  switch (message.kind) {
    case 'cancel':
      return texts.cancelled(message.step);
    case 'error':
      return texts.failedAtMeta(message.code ? `${message.message} (${message.code})` : message.message);
    case 'no-number':
      return texts.noNumber;
    case 'finish':
      return null;
  }
}

export function EmbeddedSignup({
  appId,
  configId,
  connectionName,
  readReceipts,
  onConnected,
}: {
  appId: string;
  configId: string;
  /** The form's 'Nome', checked: null when it is not valid (the field shows why). */
  connectionName: () => Promise<string | null>;
  readReceipts: boolean;
  onConnected: () => void;
}) {
  const [coexistence, setCoexistence] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const { mutate: connect } = useConnectEmbeddedSignup();
  // The latest run's session message and code: Meta posts the message and answers the login in either order.
  const run = useRef<{
    name: string;
    message: SignupMessage | null;
    code: string | null;
    closed: boolean;
    sent: boolean;
    waiting?: ReturnType<typeof setTimeout>;
  } | null>(null);
  const finish = useRef<() => void>(() => {});

  useEffect(() => {
    const finishIfReady = () => {
      const current = run.current;
      if (!current || current.sent) return;
      const message = current.message;
      if (message && message.kind !== 'finish') {
        setPhase({ step: 'failed', message: messageText(message)! });
        return;
      }
      if (!current.closed) return;
      if (!current.code) {
        setPhase({ step: 'failed', message: texts.notAuthorized });
        return;
      }
      if (!message) {
        // The code came first: Meta's session message normally follows at once; without it there is no WABA to connect.
        current.waiting ??= setTimeout(() => {
          if (run.current !== current || current.message) return;
          // Given up: a message coming later connects nothing (the admin was told nothing was).
          current.sent = true;
          setPhase({ step: 'failed', message: texts.noSessionInfo });
        }, sessionInfoWaitMs);
        return;
      }
      clearTimeout(current.waiting);
      current.sent = true;
      setPhase({ step: 'connecting' });
      connect(
        {
          name: current.name,
          code: current.code,
          wabaId: message.wabaId,
          ...(message.phoneNumberId ? { phoneNumberId: message.phoneNumberId } : {}),
          coexistence: message.coexistence,
          defaultDepartmentId: null,
          readReceipts,
        },
        { onSuccess: onConnected, onError: (error) => setPhase({ step: 'failed', message: refusalText(error) }) },
      );
    };
    const onMessage = (event: MessageEvent) => {
      const message = readSignupMessage(event.origin, event.data);
      if (!message || !run.current || run.current.sent) return;
      run.current.message = message;
      finishIfReady();
    };
    window.addEventListener('message', onMessage);
    finish.current = finishIfReady;
    return () => {
      window.removeEventListener('message', onMessage);
    };
  }, [connect, onConnected, readReceipts]);

  useEffect(() => () => clearTimeout(run.current?.waiting), []);

  // Loaded as soon as the option shows, so that the click opens Meta's window at once (a popup opened
  // long after the click is blocked by browsers).
  useEffect(() => {
    loadFacebookSdk(appId).catch(() => {});
  }, [appId]);

  const start = async () => {
    const name = await connectionName();
    if (!name) return;
    clearTimeout(run.current?.waiting);
    run.current = { name, message: null, code: null, closed: false, sent: false };
    const mine = run.current;
    setPhase({ step: 'waiting' });
    let code: string | null;
    try {
      await loadFacebookSdk(appId);
      code = await launchSignup(configId, coexistence);
    } catch {
      setPhase({ step: 'failed', message: texts.sdkFailed });
      return;
    }
    if (run.current !== mine) return;
    mine.code = code;
    mine.closed = true;
    finish.current();
  };

  const busy = phase.step === 'waiting' || phase.step === 'connecting';
  return (
    <section aria-labelledby="embedded-signup-title" className="space-y-3 rounded-lg border border-border bg-surface-2 p-4">
      <h3 id="embedded-signup-title" className="text-sm font-semibold text-fg">
        {texts.connect}
      </h3>
      <p className="text-sm text-fg-muted">{texts.intro}</p>
      <div className="space-y-1">
        <div className="flex items-start gap-2.5">
          <input
            id="embedded-signup-coexistence"
            type="checkbox"
            checked={coexistence}
            disabled={busy}
            onChange={(event) => setCoexistence(event.target.checked)}
            aria-describedby="embedded-signup-coexistence-hint"
            className="mt-0.5 size-4 shrink-0 cursor-pointer rounded border-border-strong accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          />
          <label htmlFor="embedded-signup-coexistence" className="text-sm leading-snug text-fg">
            {texts.coexistence}
          </label>
        </div>
        <p id="embedded-signup-coexistence-hint" className="pl-6.5 text-xs text-fg-muted">
          {texts.coexistenceHint}
        </p>
      </div>
      <Button onClick={start} loading={busy} loadingText={phase.step === 'connecting' ? texts.connecting : texts.waiting}>
        {texts.connect}
      </Button>
      {phase.step === 'failed' ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {phase.message}
        </p>
      ) : null}
    </section>
  );
}
