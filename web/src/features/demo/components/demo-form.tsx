import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { demoRedirectDelayMs, demoRequestForm, demoSubmitDelayMs, employeeRanges } from '#contracts/demo.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';

export const demoTexts = {
  sending: 'Enviando...',
  success: 'Solicitação enviada com sucesso!',
  followUp: 'Nossa equipe entrará em contato em breve para agendar sua demonstração.',
  redirecting: 'Redirecionando para a página inicial...',
};

/**
 * The demo request form. Nothing is sent: the data stays in the page (docs/product.md#screens), the
 * button shows 'Enviando...' for 1.5 s, then the success text, then the landing page after 3 s.
 */
export function DemoForm() {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<'idle' | 'sending' | 'sent'>('idle');
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const successRef = useRef<HTMLDivElement>(null);
  const form = useSchemaForm(demoRequestForm, { name: '', email: '', company: '', phone: '', employees: '', message: '' }, 'demo');

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  useEffect(() => {
    if (phase === 'sent') successRef.current?.focus();
  }, [phase]);

  const onSubmit = form.handleSubmit(() => {
    setPhase('sending');
    timers.current.push(
      setTimeout(() => {
        setPhase('sent');
        timers.current.push(setTimeout(() => navigate('/'), demoRedirectDelayMs));
      }, demoSubmitDelayMs),
    );
  });

  if (phase === 'sent') {
    return (
      <div ref={successRef} tabIndex={-1} role="status" className="flex flex-col items-center py-10 text-center focus:outline-none">
        <span className="flex size-14 items-center justify-center rounded-full bg-success-soft text-success">
          <CheckCircle2 className="size-7" aria-hidden="true" />
        </span>
        <h2 className="mt-5 text-xl font-semibold text-fg">{demoTexts.success}</h2>
        <p className="mt-2 max-w-sm text-sm leading-relaxed text-fg-muted">{demoTexts.followUp}</p>
        <p className="mt-6 text-xs text-fg-muted">{demoTexts.redirecting}</p>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Solicitar demonstração">
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField label="Nome completo" required autoComplete="name" {...form.field('name')} />
        <InputField label="E-mail corporativo" type="email" required autoComplete="email" inputMode="email" {...form.field('email')} />
        <InputField label="Empresa" required autoComplete="organization" {...form.field('company')} />
        <InputField label="Telefone" type="tel" required autoComplete="tel" inputMode="tel" placeholder="(11) 99999-9999" {...form.field('phone')} />
      </div>
      <SelectField
        label="Número de funcionários"
        required
        placeholder="Selecione"
        options={employeeRanges.map((r) => ({ value: r, label: `${r} funcionários` }))}
        {...form.field('employees')}
      />
      <TextareaField
        label="Mensagem (opcional)"
        placeholder="Conte um pouco sobre o seu atendimento hoje: canais, tamanho da equipe, principais desafios..."
        {...form.field('message')}
      />
      <Button type="submit" size="lg" className="w-full" loading={phase === 'sending'} loadingText={demoTexts.sending}>
        Solicitar demonstração
      </Button>
      <p className="text-center text-xs text-fg-muted">Ao enviar, você concorda em receber o contato do nosso time comercial.</p>
    </form>
  );
}
