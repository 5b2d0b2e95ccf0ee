/**
 * One step in the studio: its flows:check problems with their fixes, where it leads, its validation messages in every
 * language, and each way its form shows (example inputs, refused examples, an empty submit) rendered by the web app's
 * renderer in every language at desktop and phone width.
 */
import { ProblemList } from './problem-list.tsx';
import type { StudioSample, StudioStep } from './studio-types.ts';

/** The widths the studio shows every step at. */
const WIDTHS = [
  { name: 'desktop', width: 1024, scale: 0.5 },
  { name: '360 px', width: 360, scale: 0.75 },
] as const;
const FRAME_HEIGHT = 760;

/** The frame address for `step` shown as `sample` in `language`. */
export function frameAddress(step: string, sample: StudioSample, language: string): string {
  const query = new URLSearchParams({ step, lang: language, values: JSON.stringify(sample.values) });
  if (sample.submit) query.set('submit', '1');
  return `/studio/frame?${query.toString()}`;
}

function SampleFrames({ step, sample, languages }: { step: string; sample: StudioSample; languages: readonly string[] }) {
  return (
    <div className="studio-frames">
      {WIDTHS.flatMap(({ name, width, scale }) =>
        languages.map((language) => (
          <figure key={`${name}-${language}`} className="studio-frame" style={{ width: width * scale }}>
            <figcaption>
              {language} · {name}
            </figcaption>
            <div style={{ width: width * scale, height: FRAME_HEIGHT * scale, overflow: 'hidden' }}>
              <iframe
                title={`${step} ${sample.label} in ${language} at ${name}`}
                src={frameAddress(step, sample, language)}
                width={width}
                height={FRAME_HEIGHT}
                loading="lazy"
                style={{ transform: `scale(${scale})`, transformOrigin: '0 0', border: 0 }}
              />
            </div>
          </figure>
        )),
      )}
    </div>
  );
}

function StepLinks({ label, steps, onOpenStep }: { label: string; steps: readonly string[]; onOpenStep: (id: string) => void }) {
  if (steps.length === 0) return null;
  return (
    <p>
      {label}:{' '}
      {steps.map((id) => (
        <button key={id} type="button" className="studio-link" onClick={() => onOpenStep(id)}>
          {id}
        </button>
      ))}
    </p>
  );
}

/** The step's part of the studio. */
export function StepPanel({ step, languages, onOpenStep }: { step: StudioStep; languages: readonly string[]; onOpenStep: (id: string) => void }) {
  return (
    <section className="studio-step" aria-label={`Step ${step.id}`}>
      <h2>
        Step {step.id} <code>/auth/{step.route}</code>
      </h2>
      <p className="studio-headline">{step.headline}</p>
      <section className={step.problems.length > 0 ? 'studio-step-problems bad' : 'studio-step-problems'} aria-label={`Problems of ${step.id}`}>
        {step.problems.length > 0 ? <ProblemList problems={step.problems} /> : <p>flows:check finds no problem with this step.</p>}
      </section>
      <StepLinks label="Its answer leads to" steps={step.leadsTo} onOpenStep={onOpenStep} />
      <StepLinks label="Its links go to" steps={step.linksTo} onOpenStep={onOpenStep} />
      {step.samples.map((sample, index) => (
        <details key={sample.id} className="studio-sample" open={index === 0}>
          <summary>
            {sample.label}
            {sample.expected ? ` — refused with ${sample.expected}` : ''}
          </summary>
          <pre>{JSON.stringify(sample.values)}</pre>
          <SampleFrames step={step.id} sample={sample} languages={languages} />
        </details>
      ))}
      {step.validation.length > 0 ? (
        <table className="studio-validation">
          <caption>Validation messages</caption>
          <thead>
            <tr>
              <th>field</th>
              <th>rule</th>
              <th>key</th>
              {languages.map((language) => (
                <th key={language}>{language}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {step.validation.map((message) => (
              <tr key={`${message.field}.${message.rule}`}>
                <td>{message.field}</td>
                <td>{message.rule}</td>
                <td>
                  <code>{message.key}</code>
                </td>
                {languages.map((language) => (
                  <td key={language}>{message.words[language] || <em>missing</em>}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
