import { CalendarCheck, MessagesSquare, Users } from 'lucide-react';
import { Card } from '#web/components/ui/misc.tsx';
import { DemoForm } from '#web/features/demo/components/demo-form.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

const perks = [
  { icon: CalendarCheck, text: '30 minutos, por vídeo, no horário que for melhor para você' },
  { icon: MessagesSquare, text: 'Veja o WhatsApp e o Telegram funcionando na mesma caixa de entrada' },
  { icon: Users, text: 'Tire dúvidas sobre equipe, permissões e planos com um especialista' },
];

export default function DemoPage() {
  usePageMeta({
    title: 'Solicitar demonstração',
    description: 'Agende uma demonstração gratuita do Conversa e veja como centralizar o atendimento de WhatsApp e Telegram da sua empresa.',
  });
  return (
    <div className="px-4 py-14 sm:px-6 sm:py-20">
      <div className="mx-auto grid max-w-6xl gap-12 lg:grid-cols-[1fr_1.15fr] lg:gap-16">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand uppercase">Demonstração</p>
          <h1 className="mt-3 text-3xl font-semibold tracking-tight text-balance text-fg sm:text-5xl">Veja o Conversa em ação</h1>
          <p className="mt-5 text-base leading-relaxed text-fg-muted sm:text-lg">
            Preencha o formulário e um especialista vai mostrar, na prática, como a sua equipe pode atender mais rápido e sem perder nenhuma mensagem.
          </p>
          <ul className="mt-8 space-y-4">
            {perks.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-[15px] text-fg">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-soft text-brand-soft-fg">
                  <Icon className="size-[18px]" aria-hidden="true" />
                </span>
                <span className="pt-1.5">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <Card className="p-6 sm:p-8">
          <DemoForm />
        </Card>
      </div>
    </div>
  );
}
