import fc from 'fast-check';

/**
 * Text generators for budget properties: what a digest or record file could hold, from the
 * ordinary (English developer prose, ids, paths, CJK sentences) to the hostile (emoji
 * sequences, characters that NFKC expands, control characters, any ASCII).
 */

const WORDS = `the a of to and in is for on with by use uses used not never always only when if
orders order refunds refund ledger worker queue retry retries backoff postgres sqlite migration
schema index transaction webhook payload invoice tenant session token cache redis deploy
staging production build test tests vitest typescript node config env secret api handler
router middleware error errors timeout lock writer reader digest record records handover
decision convention preference profile project branch commit merge release package`
  .split(/\s+/)
  .filter(Boolean);

/** Sentences written for these tests, in Chinese, Japanese and Korean. */
export const CJK_SENTENCES = [
  '订单服务使用PostgreSQL数据库，因为它支持事务和外键约束。',
  '退款由账本工作进程处理，接口只负责把退款任务放进队列。',
  '测试必须使用真实的数据库文件，不要使用模拟对象。',
  '部署之前需要在预发布环境运行全部测试。',
  '注文サービスではPostgreSQLを使うことに決めました。',
  '払い戻しは台帳ワーカーが処理し、APIはジョブを登録するだけです。',
  '開発者は小さなファイルを好み、各ファイルは一つの役割だけを持ちます。',
  '주문 서비스에서는 PostgreSQL을 사용하기로 결정했습니다.',
  '환불은 원장 작업자가 처리하고 API는 작업만 등록합니다.',
  '테스트는 실제 데이터베이스 파일을 사용해야 합니다.',
];

const CJK_CHARS = [...new Set(CJK_SENTENCES.join('').replace(/[A-Za-z0-9\s]/g, ''))];

const EMOJI = ['🚀', '🔥', '✅', '🎉', '👍🏽', '👨‍👩‍👧‍👦', '🇯🇵', '🏳️‍🌈', '❤️', '😀', '1️⃣', '🧪', '📦'];

/** Characters NFKC rewrites, some into many (U+FDFA becomes eighteen characters). */
const NFKC = ['\uFDFA', '㍻', 'ﬁ', '①', '㎏', 'Ａ', '…', '™', '½', 'ｶ', '㈱', 'ǆ', '⑳', '㌀'];

const ACCENTED = [
  'façade',
  'naïve',
  'über',
  'Ελληνικά',
  'Привет',
  'mañana',
  'Zürich',
  'café',
  '—',
  '“quoted”',
];

const word = fc.constantFrom(...WORDS);
const cjk = fc.oneof(
  fc.constantFrom(...CJK_SENTENCES),
  fc.array(fc.constantFrom(...CJK_CHARS), { minLength: 1, maxLength: 30 }).map((a) => a.join('')),
);
const emoji = fc.array(fc.constantFrom(...EMOJI), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));
const nfkc = fc.array(fc.constantFrom(...NFKC), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));
const hex = fc.stringMatching(/^[0-9a-f]{8,40}$/);
const path = fc
  .array(fc.stringMatching(/^[a-z][a-z0-9_.-]{0,12}$/), { minLength: 1, maxLength: 6 })
  .map((a) => `/${a.join('/')}`);

/** One piece of a line. */
const piece = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 1, arbitrary: fc.ulid() },
  { weight: 1, arbitrary: hex },
  { weight: 1, arbitrary: path },
  { weight: 2, arbitrary: cjk },
  { weight: 1, arbitrary: emoji },
  { weight: 1, arbitrary: nfkc },
  { weight: 1, arbitrary: fc.constantFrom(...ACCENTED) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
);

/** A line: pieces joined by spaces (or not), sometimes a Markdown bullet or heading. */
export const hostileLine = fc
  .tuple(
    fc.constantFrom('', '', '- ', '## ', '  - '),
    fc.array(piece, { maxLength: 30, size: 'medium' }),
    fc.constantFrom(' ', ' ', ''),
  )
  .map(([lead, ps, sep]) => lead + ps.join(sep));

/** A whole file: lines of mixed content; some long enough to need cutting, some short. */
export const hostileText = fc
  .tuple(fc.array(hostileLine, { maxLength: 300, size: 'max' }), fc.constantFrom('\n', '\n', '\r\n', '\n\n'))
  .map(([lines, nl]) => lines.join(nl));
