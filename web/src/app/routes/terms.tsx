import { Link } from 'react-router';
import { PageHero, Prose, Toc } from '#web/components/static-page.tsx';
import { site } from '#web/config/site.ts';
import { formatBRL, proFallbackPriceCents } from '#contracts/plans.ts';
import { usePageMeta } from '#web/lib/seo.ts';

const sections = [
  { id: 'uso', label: 'Uso do serviço' },
  { id: 'conta', label: 'Sua conta' },
  { id: 'conteudo', label: 'Conteúdo e mensagens' },
  { id: 'privacidade', label: 'Privacidade' },
  { id: 'pagamento', label: 'Pagamento e cancelamento' },
  { id: 'alteracoes', label: 'Alterações destes termos' },
  { id: 'contato', label: 'Contato' },
];

export default function TermsPage() {
  usePageMeta({ title: 'Termos de uso', description: 'As regras para usar o Conversa: conta, conteúdo, pagamento, cancelamento e contato.' });
  return (
    <>
      <PageHero eyebrow="Legal" title="Termos de uso" updatedAt={site.legalUpdatedAt}>
        Estes termos explicam as regras para usar o Conversa. Ao criar uma conta ou usar o serviço, você concorda com eles.
      </PageHero>
      <Prose>
        <Toc items={sections} />
        <h2 id="uso">1. Uso do serviço</h2>
        <p>
          O Conversa é uma plataforma on-line, oferecida pela Conversa Tecnologia Ltda., que reúne em uma caixa de entrada as conversas de WhatsApp e Telegram
          de uma empresa. Você pode usá-lo para atender clientes, organizar contatos e coordenar a sua equipe, sempre de acordo com a lei e com as regras de
          cada canal conectado.
        </p>
        <p>
          O WhatsApp e o Telegram são serviços de terceiros. Ao conectá-los ao Conversa, você também se compromete a seguir os termos desses serviços; não
          respondemos por bloqueios ou mudanças feitas por eles.
        </p>
        <h2 id="conta">2. Sua conta</h2>
        <ul>
          <li>Você deve informar dados verdadeiros no cadastro e mantê-los atualizados.</li>
          <li>Cada usuário tem login próprio. Não compartilhe sua senha; você é responsável pelo que for feito com ela.</li>
          <li>
            O dono da conta e os administradores decidem quem entra na equipe e o que cada pessoa pode fazer, e respondem pelo uso que a equipe faz do serviço.
          </li>
          <li>Avise-nos imediatamente se suspeitar de acesso indevido à sua conta.</li>
        </ul>
        <h2 id="conteudo">3. Conteúdo e mensagens</h2>
        <p>
          As mensagens, arquivos e contatos que você envia ou recebe pelo Conversa continuam sendo seus. Você nos autoriza a armazená-los e processá-los apenas
          para prestar o serviço.
        </p>
        <p>É proibido usar o Conversa para:</p>
        <ul>
          <li>enviar spam, mensagens em massa não solicitadas ou correntes;</li>
          <li>aplicar golpes, fraudes, phishing ou qualquer tipo de engano;</li>
          <li>divulgar conteúdo ilegal, discriminatório, violento ou que viole direitos de terceiros;</li>
          <li>tentar acessar dados de outras empresas ou prejudicar o funcionamento da plataforma.</li>
        </ul>
        <p>Se identificarmos esse tipo de uso, podemos suspender ou encerrar a conta, com aviso sempre que possível.</p>
        <h2 id="privacidade">4. Privacidade</h2>
        <p>
          O tratamento de dados pessoais segue a Lei Geral de Proteção de Dados (LGPD) e está descrito na nossa{' '}
          <Link to="/privacy">Política de privacidade</Link>, que faz parte destes termos.
        </p>
        <h2 id="pagamento">5. Pagamento e cancelamento</h2>
        <ul>
          <li>O plano gratuito não tem custo e tem recursos limitados.</li>
          <li>O plano Pro custa {formatBRL(proFallbackPriceCents)} por mês, cobrados mensalmente, de forma antecipada, no cartão de crédito.</li>
          <li>Não há fidelidade: você pode cancelar a assinatura a qualquer momento pelo painel da sua conta.</li>
          <li>
            Após o cancelamento, o acesso ao Pro continua até o fim do período já pago. <strong>Não há reembolso de períodos já utilizados.</strong>
          </li>
          <li>Em caso de falta de pagamento, a conta volta aos limites do plano gratuito.</li>
        </ul>
        <h2 id="alteracoes">6. Alterações destes termos</h2>
        <p>
          Podemos atualizar estes termos para refletir mudanças no produto ou na lei. Quando a mudança for relevante, avisaremos por e-mail ou dentro do próprio
          Conversa com pelo menos 15 dias de antecedência. Continuar usando o serviço depois disso significa concordar com a nova versão.
        </p>
        <h2 id="contato">7. Contato</h2>
        <p>
          Dúvidas sobre estes termos? Escreva para <a href={`mailto:${site.email}`}>{site.email}</a> ou veja outras formas na nossa{' '}
          <Link to="/contact">página de contato</Link>.
        </p>
      </Prose>
    </>
  );
}
