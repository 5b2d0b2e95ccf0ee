/** Sign-in methods: the list (kind, masked destination or name, added, last used), add, rename, remove, default. */
import { useState, type FormEvent } from 'react';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorKind, FactorList, FactorSummary } from '../../contract/account-api.ts';
import { AccountAlert, AccountField, AccountSection, formatWhen, useAccountAction, worded, type Wording } from './account-ui.tsx';
import { PasskeyCeremonyError, passkeyRequest, passkeysSupported, runPasskeyCeremony } from './passkey-ceremony.ts';
import { StepUp, stepUpFresh } from './step-up.tsx';

/** What needs a fresh second factor first: adding a kind, or removing a factor. */
type Guarded = { action: 'add'; kind: FactorKind } | { action: 'remove'; factorId: string };

/** A factor being added: its id, and what its screen shows (an authenticator's key, or where the code went). */
interface Adding {
  kind: FactorKind;
  factorId?: string;
  secret?: string;
  otpauthUri?: string;
  destination?: string;
}

function FactorRow({ factor, onChanged, onRemove, busy }: { factor: FactorSummary; onChanged: (list: FactorList) => void; onRemove: () => void; busy: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const [label, setLabel] = useState(factor.label ?? '');
  const action = useAccountAction();
  const name = factor.label || t(`account.factor.kind.${factor.kind}`);

  async function rename(event: FormEvent) {
    event.preventDefault();
    const list = await action.run(() => accountCall<FactorList>('POST', `/account/factors/${factor.id}/name`, { label }));
    if (list) {
      setRenaming(false);
      onChanged(list);
    }
  }

  async function makeDefault() {
    const list = await action.run(() => accountCall<FactorList>('POST', `/account/factors/${factor.id}/default`));
    if (list) onChanged(list);
  }

  return (
    <li className="account-item">
      <div className="account-item-main">
        <p className="account-item-title">
          {name} {factor.isDefault ? <span className="account-badge">{t('account.factor.default')}</span> : null}
        </p>
        <p className="account-item-detail">
          {[
            factor.label ? t(`account.factor.kind.${factor.kind}`) : undefined,
            factor.destination,
            factor.authenticator ? t('account.factor.authenticator', { name: factor.authenticator }) : undefined,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <p className="account-item-detail">
          {t('account.factor.added', { when: formatWhen(factor.addedAt) })} · {t('account.factor.lastUsed', { when: formatWhen(factor.lastUsedAt) })}
        </p>
      </div>
      {renaming ? (
        <form onSubmit={(event) => void rename(event)} className="account-inline-form">
          <AccountField label={t('account.factor.nameLabel', { name })} value={label} onChange={setLabel} />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.save')}
          </button>
          <button type="button" className="account-button-secondary" onClick={() => setRenaming(false)}>
            {t('account.cancel')}
          </button>
        </form>
      ) : (
        <div className="account-actions">
          <button type="button" className="account-button-secondary" onClick={() => setRenaming(true)} aria-label={t('account.factor.renameNamed', { name })}>
            {t('account.factor.rename')}
          </button>
          {factor.isDefault ? null : (
            <button type="button" className="account-button-secondary" disabled={action.busy} onClick={() => void makeDefault()} aria-label={t('account.factor.makeDefaultNamed', { name })}>
              {t('account.factor.makeDefault')}
            </button>
          )}
          <button type="button" className="account-button-danger" disabled={busy} onClick={onRemove} aria-label={t('account.factor.removeNamed', { name })}>
            {t('account.factor.remove')}
          </button>
        </div>
      )}
      <AccountAlert text={action.error} />
    </li>
  );
}

/**
 * Adding a passkey: an optional name, then the browser's prompt; the passkey is kept only once the server has
 * verified the browser's answer, so a closed prompt changes nothing.
 */
function AddPasskey({ onDone, onCancel }: { onDone: (list: FactorList) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const action = useAccountAction();
  const title = t('account.factor.add.passkey');
  const supported = passkeysSupported();

  async function create(event: FormEvent) {
    event.preventDefault();
    const list = await action.run(async () => {
      const request = passkeyRequest(await accountCall<Record<string, unknown>>('POST', '/account/factors', { kind: 'passkey' }));
      if (!request) throw new PasskeyCeremonyError(t('account.passkey.failed'));
      const credential = await runPasskeyCeremony(request);
      return accountCall<FactorList>('POST', '/account/passkeys', { credential, name });
    });
    if (list) onDone(list);
  }

  return (
    <form className="account-panel" onSubmit={(event) => void create(event)} aria-label={title}>
      <h3 className="account-panel-title">{title}</h3>
      <p>{t('account.factor.addIntro.passkey')}</p>
      {supported ? (
        <>
          <AccountField label={t('account.passkey.name')} hint={t('account.passkey.nameHint')} value={name} onChange={setName} autoComplete="off" />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.continue')}
          </button>
        </>
      ) : (
        <AccountAlert text={t('account.passkey.unsupported')} />
      )}
      <AccountAlert text={action.error} />
      <button type="button" className="account-button-secondary" onClick={onCancel}>
        {t('account.cancel')}
      </button>
    </form>
  );
}

/** Adding one factor: the phone number first for SMS, then the code that confirms it. */
function AddFactor({ adding, onStarted, onDone, onCancel }: { adding: Adding; onStarted: (adding: Adding) => void; onDone: (list: FactorList) => void; onCancel: () => void }) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const action = useAccountAction();

  async function begin(event: FormEvent) {
    event.preventDefault();
    const answer = await action.run(() => accountCall<Record<string, unknown>>('POST', '/account/factors', { kind: adding.kind, ...(adding.kind === 'sms' ? { phone } : {}) }));
    if (answer) {
      onStarted({
        kind: adding.kind,
        factorId: String(answer.factorId),
        secret: typeof answer.secret === 'string' ? answer.secret : undefined,
        otpauthUri: typeof answer.otpauth_uri === 'string' ? answer.otpauth_uri : undefined,
        destination: typeof answer.delivery_destination === 'string' ? answer.delivery_destination : undefined,
      });
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') return action.setError({ key: 'validation.code.required' });
    const list = await action.run(() => accountCall<FactorList>('POST', `/account/factors/${adding.factorId}/confirmation`, { code: code.trim() }));
    if (list) onDone(list);
  }

  const title = t(`account.factor.add.${adding.kind}`);
  if (!adding.factorId) {
    return (
      <form className="account-panel" onSubmit={(event) => void begin(event)} aria-label={title}>
        <h3 className="account-panel-title">{title}</h3>
        {adding.kind === 'sms' ? <AccountField label={t('account.factor.phone')} hint={t('account.factor.phoneHint')} value={phone} onChange={setPhone} type="tel" inputMode="tel" autoComplete="tel" /> : null}
        <p>{t(`account.factor.addIntro.${adding.kind}`)}</p>
        <button type="submit" className="button-primary" disabled={action.busy}>
          {t('account.continue')}
        </button>
        <AccountAlert text={action.error} />
        <button type="button" className="account-button-secondary" onClick={onCancel}>
          {t('account.cancel')}
        </button>
      </form>
    );
  }
  return (
    <form className="account-panel" onSubmit={(event) => void confirm(event)} aria-label={title}>
      <h3 className="account-panel-title">{title}</h3>
      {adding.secret ? (
        <>
          <p>{t('account.factor.totpKey')}</p>
          <p className="account-code">{adding.secret}</p>
          {adding.otpauthUri ? (
            <p>
              <a href={adding.otpauthUri}>{t('account.factor.totpOpen')}</a>
            </p>
          ) : null}
        </>
      ) : (
        <p>{t('account.factor.codeSent', { destination: adding.destination ?? '' })}</p>
      )}
      <AccountField label={t('account.factor.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" />
      <button type="submit" className="button-primary" disabled={action.busy}>
        {t('account.factor.confirm')}
      </button>
      <AccountAlert text={action.error} />
      <button type="button" className="account-button-secondary" onClick={onCancel}>
        {t('account.cancel')}
      </button>
    </form>
  );
}

/** The sign-in methods section. */
export function FactorsSection({ list, onChanged }: { list: FactorList; onChanged: (list: FactorList) => void }) {
  const [guarded, setGuarded] = useState<Guarded>();
  const [adding, setAdding] = useState<Adding>();
  const [notice, setNotice] = useState<Wording>();
  const action = useAccountAction();

  async function perform(what: Guarded) {
    setGuarded(undefined);
    if (what.action === 'add') return setAdding({ kind: what.kind });
    const next = await action.run(() => accountCall<FactorList>('POST', `/account/factors/${what.factorId}/removal`));
    if (next) {
      onChanged(next);
      setNotice({ key: 'account.factor.removed' });
    }
  }

  /** A new action starts with a clean slate: no earlier notice or error stays beside its outcome. */
  function startOver() {
    setNotice(undefined);
    action.setError(undefined);
  }

  async function guard(what: Guarded) {
    startOver();
    if (stepUpFresh(list)) return perform(what);
    setGuarded(what);
  }

  async function proven() {
    const fresh = await action.run(() => accountCall<FactorList>('GET', '/account/factors'));
    if (fresh) onChanged(fresh);
    if (guarded) await perform(guarded);
  }

  return (
    <AccountSection id="sign-in-methods" title={t('account.factors.title')}>
      <p>{t('account.factors.intro')}</p>
      {list.factors.length === 0 ? <p>{t('account.factors.none')}</p> : null}
      <ul className="account-list">
        {list.factors.map((factor) => (
          <FactorRow key={`${factor.id}-${factor.label ?? ''}`} factor={factor} onChanged={onChanged} busy={action.busy} onRemove={() => void guard({ action: 'remove', factorId: factor.id })} />
        ))}
      </ul>
      {notice ? (
        <p className="account-notice" role="status">
          {worded(notice)}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
      {guarded ? <StepUp factors={list.factors} onProven={() => void proven()} onCancel={() => setGuarded(undefined)} /> : null}
      {adding?.kind === 'passkey' ? (
        <AddPasskey
          onCancel={() => setAdding(undefined)}
          onDone={(next) => {
            setAdding(undefined);
            onChanged(next);
            startOver();
            setNotice({ key: 'account.factor.added.notice' });
          }}
        />
      ) : adding ? (
        <AddFactor
          adding={adding}
          onStarted={setAdding}
          onCancel={() => setAdding(undefined)}
          onDone={(next) => {
            setAdding(undefined);
            onChanged(next);
            startOver();
            setNotice({ key: 'account.factor.added.notice' });
          }}
        />
      ) : null}
      {!guarded && !adding ? (
        <div className="account-actions">
          {list.addable.map((kind) => (
            <button key={kind} type="button" className="account-button-secondary" onClick={() => void guard({ action: 'add', kind })}>
              {t(`account.factor.add.${kind}`)}
            </button>
          ))}
        </div>
      ) : null}
    </AccountSection>
  );
}
