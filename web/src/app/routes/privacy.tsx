import { Link } from 'react-router';
import { PageHero, Prose, Toc } from '#web/components/static-page.tsx';
import { site } from '#web/config/site.ts';
import { usePageMeta } from '#web/lib/seo.ts';

const sections = [
  { id: 'dados', label: 'Dados que coletamos' },
  { id: 'uso', label: 'Como usamos os dados' },
  { id: 'compartilhamento', label: 'Compartilhamento' },
  { id: 'direitos', label: 'Seus direitos' },
  { id: 'retencao', label: 'Retenção' },
  { id: 'cookies', label: 'Cookies' },
  { id: 'atualizacoes', label: 'Atualizações' },
];

export default function PrivacyPage() {
  usePageMeta({
    title: 'Política de privacidade',
    description: 'Quais dados o Conversa coleta, como usa, com quem compartilha e como você exerce seus direitos segundo a LGPD.',
  });
  return (
    <>
      <PageHero eyebrow="Legal" title="Política de privacidade" updatedAt={site.legalUpdatedAt}>
        Levamos a sério os dados da sua empresa e dos seus clientes. Aqui explicamos, sem juridiquês, o que coletamos e por quê, de acordo com a Lei Geral de
        Proteção de Dados (LGPD).
      </PageHero>
      <Prose>
        <Toc items={sections} />
        <h2 id="dados">1. Dados que coletamos</h2>
        <ul>
          <li>
            <strong>Dados de cadastro:</strong> nome, e-mail e senha (guardada de forma criptografada) de cada usuário, e o nome da empresa.
          </li>
          <li>
            <strong>Dados das conversas:</strong> mensagens, arquivos, áudios e contatos que passam pelos canais que você conecta.
          </li>
          <li>
            <strong>Dados de pagamento:</strong> processados pelo nosso parceiro de pagamentos. Não guardamos o número do seu cartão.
          </li>
          <li>
            <strong>Dados de uso:</strong> informações técnicas como navegador, endereço IP e páginas acessadas, para manter o serviço seguro e funcionando.
          </li>
        </ul>
        <h2 id="uso">2. Como usamos os dados</h2>
        <ul>
          <li>para prestar o serviço: mostrar as conversas, enviar mensagens e sincronizar a equipe;</li>
          <li>para enviar e-mails necessários, como confirmação de cadastro e recuperação de senha;</li>
          <li>para cobrar o plano contratado e emitir documentos fiscais;</li>
          <li>para proteger a plataforma contra fraudes e abusos;</li>
          <li>para melhorar o produto, sempre com dados agregados.</li>
        </ul>
        <p>Não vendemos dados pessoais e não usamos o conteúdo das suas conversas para publicidade.</p>
        <h2 id="compartilhamento">3. Compartilhamento</h2>
        <p>Compartilhamos dados apenas com:</p>
        <ul>
          <li>provedores de infraestrutura em nuvem que hospedam o Conversa;</li>
          <li>o processador de pagamentos, para cobrar a assinatura;</li>
          <li>os próprios canais conectados (WhatsApp e Telegram), para entregar as mensagens;</li>
          <li>autoridades públicas, quando a lei exigir.</li>
        </ul>
        <h2 id="direitos">4. Seus direitos</h2>
        <p>Pela LGPD, você pode a qualquer momento:</p>
        <ul>
          <li>acessar os dados que temos sobre você;</li>
          <li>corrigir dados incompletos ou desatualizados;</li>
          <li>pedir a exclusão dos seus dados;</li>
          <li>saber com quem compartilhamos seus dados e revogar consentimentos.</li>
        </ul>
        <p>
          Para exercer qualquer um desses direitos, basta enviar um e-mail para <a href={`mailto:${site.privacyEmail}`}>{site.privacyEmail}</a>. Respondemos em
          até 15 dias.
        </p>
        <h2 id="retencao">5. Retenção</h2>
        <p>
          Guardamos os dados enquanto a conta estiver ativa. Se a conta for encerrada, apagamos as conversas e os contatos em até 90 dias, exceto o que a lei
          nos obriga a manter por mais tempo (por exemplo, registros fiscais e de acesso).
        </p>
        <h2 id="cookies">6. Cookies</h2>
        <p>
          Usamos apenas o armazenamento local do navegador necessário para manter você conectado e lembrar preferências como o tema. Não usamos cookies de
          publicidade. Os detalhes estão na <Link to="/cookies">Política de cookies</Link>.
        </p>
        <h2 id="atualizacoes">7. Atualizações</h2>
        <p>
          Esta política pode mudar para acompanhar o produto e a legislação. A data da última atualização fica sempre no topo da página e, quando a mudança for
          relevante, avisaremos por e-mail.
        </p>
      </Prose>
    </>
  );
}
