import { describe, expect, it } from '@jest/globals';
import { OutputParseError, placeholders, renderTemplate } from '@precis/prompts';
import {
  type PersphereSummary,
  parseExtractedPerspective,
  parsePersphereSummary,
  parseRating,
  parseStance,
  parseYesNo,
  renderPersphereSummaryXml,
} from './persphere.parsers.js';
import {
  formatPersphereDocuments,
  PERSPHERE_EDITOR_TEMPLATE,
  PERSPHERE_SUMMARY_TEMPLATE,
  PERSPHERE_TEMPLATES,
} from './persphere.templates.js';

const docs = ['205', '364', '1138', '858'];

const claim = (n: number, body: string) =>
  `<claim id="${n}">\n<statement>Claim ${n}.</statement>\n${body}</claim>`;
const xml = (...claims: string[]) => `<summary>\n${claims.join('\n')}\n</summary>`;
const p = (refs: string, text: string) => `<perspective refs="${refs}">${text}</perspective>\n`;
const good = xml(claim(1, p('205', 'A.')), claim(2, p('858', 'B.')));

describe('parsePersphereSummary', () => {
  it('reads a fenced summary with chatter around it', () => {
    const out = `Sure! Here is the summary.\n\`\`\`xml
<summary>
  <claim id="1">
    <statement>Surrealist memes  are progress.</statement>
    <perspective refs="205, 364">They draw on a long line of
      modern art.</perspective>
    <perspective refs="364 205,364">No message is needed for impact.</perspective>
  </claim>
  <claim id="2">
    <statement>Surreal memes set meme art back.</statement>
    <perspective refs="1138">They are internet elitism.</perspective>
  </claim>
</summary>
\`\`\`
Let me know if you need anything else.`;
    expect(parsePersphereSummary(out, docs)).toEqual({
      claims: [
        {
          statement: 'Surrealist memes are progress.',
          perspectives: [
            { text: 'They draw on a long line of modern art.', refs: ['205', '364'] },
            { text: 'No message is needed for impact.', refs: ['364', '205'] },
          ],
        },
        {
          statement: 'Surreal memes set meme art back.',
          perspectives: [{ text: 'They are internet elitism.', refs: ['1138'] }],
        },
      ],
    });
  });

  it('refuses one claim or three claims', () => {
    expect(() => parsePersphereSummary(xml(claim(1, p('205', 'A.'))), docs)).toThrow(
      'persphere.summary.vanilla: 1 claim, expected exactly 2',
    );
    const three = xml(claim(1, p('205', 'A.')), claim(2, p('858', 'B.')), claim(3, p('364', 'C.')));
    expect(() => parsePersphereSummary(three, docs)).toThrow(
      'persphere.summary.vanilla: 3 claims, expected exactly 2',
    );
  });

  it('refuses an unknown document id, naming it and the allowed ones (truncated when long)', () => {
    const out = xml(claim(1, p('205, 99', 'A.')), claim(2, p('858', 'B.')));
    expect(() => parsePersphereSummary(out, docs)).toThrow(
      'claim 1, perspective 1 cites unknown document id "99" (allowed: 205, 364, 1138, 858)',
    );
    const many = Array.from({ length: 25 }, (_, i) => String(i + 100));
    expect(() => parsePersphereSummary(out, many, 'persphere.hiersphere.local')).toThrow(
      'persphere.hiersphere.local: claim 1, perspective 1 cites unknown document id "205" (allowed: 100, 101,',
    );
    expect(() => parsePersphereSummary(out, many)).toThrow('118, 119, ... (5 more))');
    expect(() => parsePersphereSummary(out, docs.slice(0, 1))).toThrow('id "99" (allowed: 205)');
  });

  it('refuses a refusal and names the template', () => {
    const refusal = "I'm sorry, I can't help with that.";
    expect(() => parsePersphereSummary(refusal, docs, 'persphere.hiersphere.editor')).toThrow(
      'persphere.hiersphere.editor: no <summary> element in the reply',
    );
    const error = (() => {
      try {
        parsePersphereSummary(refusal, docs);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(OutputParseError);
    expect((error as OutputParseError).output).toBe(refusal);
  });

  it('refuses a perspective without refs or with empty refs, and empty parts', () => {
    const noRefs = xml(claim(1, p('205', 'A.')), claim(2, '<perspective>B.</perspective>\n'));
    expect(() => parsePersphereSummary(noRefs, docs)).toThrow('claim 2, perspective 1 has no refs attribute');
    const emptyRefs = xml(claim(1, p(' , ', 'A.')), claim(2, p('858', 'B.')));
    expect(() => parsePersphereSummary(emptyRefs, docs)).toThrow(
      'claim 1, perspective 1 has refs=" , ", which lists no document id',
    );
    expect(() =>
      parsePersphereSummary(xml(claim(1, p('205', '  ')), claim(2, p('858', 'B.'))), docs),
    ).toThrow('claim 1, perspective 1 is empty');
    expect(() => parsePersphereSummary(xml(claim(1, ''), claim(2, p('858', 'B.'))), docs)).toThrow(
      'claim 1 has no <perspective>',
    );
    const noStatement = xml(claim(1, p('205', 'A.')), `<claim id="2">${p('858', 'B.')}</claim>`);
    expect(() => parsePersphereSummary(noStatement, docs)).toThrow(
      'claim 2 has 0 <statement> elements, expected exactly 1',
    );
  });

  it('is strict about unclosed tags and other markup', () => {
    const unclosed = good.replace('A.</perspective>', 'A.');
    expect(() => parsePersphereSummary(unclosed, docs)).toThrow(
      'persphere.summary.vanilla: </claim> found while <perspective> is unclosed',
    );
    expect(() => parsePersphereSummary(good.replace('</summary>', ''), docs)).toThrow(
      'unclosed <summary> tag',
    );
    expect(() => parsePersphereSummary(good.replace('A.', 'A <b>bold</b> one.'), docs)).toThrow(
      'unexpected <b> inside <perspective>',
    );
    expect(() => parsePersphereSummary(good.replace('A.', 'costs < 5%'), docs)).toThrow(
      'malformed tag at "< 5%</perspective>',
    );
    expect(() => parsePersphereSummary(good.replace('<claim id="2">', 'Note: <claim id="2">'), docs)).toThrow(
      'text "Note:" directly inside <summary>',
    );
    expect(() => parsePersphereSummary(`${good}\n${good}`, docs)).toThrow(
      '2 <summary> elements in the reply, expected exactly one',
    );
  });

  it('decodes entities in text and attributes, keeping a bare ampersand', () => {
    const out = xml(
      claim(1, p('205', 'Tom &amp; Jerry &lt;3 &quot;cats&quot; &apos;n&apos; mice &gt; dogs, AT&T.')),
      claim(2, "<perspective refs='858&#44;205'>B&#39;s view.</perspective>\n"),
    );
    const parsed = parsePersphereSummary(out, docs);
    expect(parsed.claims[0].perspectives[0]!.text).toBe('Tom & Jerry <3 "cats" \'n\' mice > dogs, AT&T.');
    expect(parsed.claims[1].perspectives[0]).toEqual({ text: "B's view.", refs: ['858', '205'] });
  });

  it('renders canonical XML that parses back to the same summary', () => {
    const summary: PersphereSummary = {
      claims: [
        {
          statement: 'Cats & dogs <both> are "fine".',
          perspectives: [
            { text: "It's a < b & c > d.", refs: ['205', '364'] },
            { text: 'Second.', refs: ['1138'] },
          ],
        },
        { statement: 'No.', perspectives: [{ text: 'Third.', refs: ['858'] }] },
      ],
    };
    const rendered = renderPersphereSummaryXml(summary);
    expect(rendered).toContain(
      '    <perspective refs="205, 364">It\'s a &lt; b &amp; c &gt; d.</perspective>\n',
    );
    expect(rendered.startsWith('<summary>\n  <claim id="1">\n    <statement>Cats &amp; dogs')).toBe(true);
    expect(parsePersphereSummary(rendered, docs)).toEqual(summary);
  });
});

describe('judge answers', () => {
  const refusal = "I'm sorry, I can't help with that.";

  it('reads a rating, tolerating bold markers and a repeated equal rating', () => {
    expect(parseRating('Good coverage, one made-up reference.\nRating: [[7]]')).toBe(7);
    expect(parseRating('**Rating:** [[ 10 ]]\nSo, Rating: [[10]].')).toBe(10);
  });

  it('refuses ratings out of range, several different ratings, malformed ones and a refusal', () => {
    expect(() => parseRating('Rating: [[11]]')).toThrow('persphere.judge.rating: rating 11 is outside 1-10');
    expect(() => parseRating('Rating: [[0]]')).toThrow('rating 0 is outside 1-10');
    expect(() => parseRating('First Rating: [[6]], on reflection Rating: [[8]]')).toThrow(
      '2 different ratings (6, 8), expected exactly one',
    );
    expect(() => parseRating('Rating: [[7.5]]')).toThrow('rating "7.5" is not an integer');
    expect(() => parseRating('Rating: 7')).toThrow('no "Rating: [[n]]" in the reply');
    expect(() => parseRating(refusal)).toThrow('persphere.judge.rating: no "Rating: [[n]]" in the reply');
  });

  it('reads a final yes/no answer line', () => {
    expect(parseYesNo('Both argue the same point.\nAnswer: yes', 'persphere.judge.entail')).toBe(true);
    expect(parseYesNo('**Answer:** No.\n', 'persphere.judge.reference')).toBe(false);
    expect(parseYesNo('  answer: YES  ', 't')).toBe(true);
  });

  it('refuses other yes/no answers, a text after the answer, two answers and a refusal', () => {
    expect(() => parseYesNo('Answer: maybe', 'persphere.judge.entail')).toThrow(
      'persphere.judge.entail: expected "Answer: yes" or "Answer: no", got "maybe"',
    );
    expect(() => parseYesNo('Answer: yes\nHope this helps.', 't')).toThrow(
      't: text after the "Answer:" line',
    );
    expect(() => parseYesNo('Answer: yes\nAnswer: no', 't')).toThrow(
      't: 2 "Answer:" lines in the reply, expected exactly one',
    );
    expect(() => parseYesNo('Yes', 't')).toThrow('t: no "Answer:" line in the reply');
    expect(() => parseYesNo(refusal, 'persphere.judge.reference')).toThrow(
      'persphere.judge.reference: no "Answer:" line in the reply',
    );
  });

  it('reads a stance and refuses anything but 1 or 2', () => {
    expect(parseStance('It defends Seinfeld.\nAnswer: 2')).toBe(2);
    expect(parseStance('**Answer: 1.**')).toBe(1);
    expect(() => parseStance('Answer: Claim 1')).toThrow(
      'persphere.judge.stance: expected "Answer: 1" or "Answer: 2", got "claim 1"',
    );
    expect(() => parseStance('Answer: 3')).toThrow('got "3"');
    expect(() => parseStance(refusal)).toThrow('persphere.judge.stance: no "Answer:" line in the reply');
  });

  it('reads an extracted perspective, stripping quotes', () => {
    expect(parseExtractedPerspective('Perspective: Friends is the classic sitcom.  ')).toBe(
      'Friends is the classic sitcom.',
    );
    expect(parseExtractedPerspective('Here it is:\n**Perspective:** "Seinfeld is innovative".')).toBe(
      'Seinfeld is innovative.',
    );
    expect(parseExtractedPerspective('perspective: “The players’ union backs it.”')).toBe(
      'The players’ union backs it.',
    );
  });

  it('refuses an empty perspective, a placeholder, a missing line and a refusal', () => {
    expect(() => parseExtractedPerspective('Perspective:   ')).toThrow(
      'persphere.judge.extract: the perspective is empty',
    );
    expect(() => parseExtractedPerspective('Perspective: ""')).toThrow('the perspective is empty');
    expect(() => parseExtractedPerspective('Perspective: N/A')).toThrow('no perspective given ("N/A")');
    expect(() => parseExtractedPerspective("Perspective: I'm sorry, the document says nothing.")).toThrow(
      'no perspective given',
    );
    expect(() => parseExtractedPerspective('Friends is the classic sitcom.')).toThrow(
      'persphere.judge.extract: no "Perspective:" line in the reply',
    );
    expect(() => parseExtractedPerspective(refusal)).toThrow('no "Perspective:" line in the reply');
  });
});

describe('PerSphere templates', () => {
  const expected: Record<string, string[]> = {
    'persphere.summary.vanilla': ['documents', 'query'],
    'persphere.hiersphere.local': ['documents', 'query'],
    'persphere.hiersphere.editor': ['query', 'summaries'],
    'persphere.judge.rating': ['golden', 'query', 'response'],
    'persphere.judge.extract': ['claim', 'document'],
    'persphere.judge.entail': ['hypothesis', 'premise'],
    'persphere.judge.stance': ['claim1', 'claim2', 'perspective'],
    'persphere.judge.reference': ['document', 'perspective'],
  };

  it('have the expected ids, version and placeholders, and render with them', () => {
    expect(PERSPHERE_TEMPLATES.map((t) => t.id).sort()).toEqual(Object.keys(expected).sort());
    for (const t of PERSPHERE_TEMPLATES) {
      expect(t.version).toBe('1');
      expect(placeholders(`${t.system ?? ''}\n${t.user}`).sort()).toEqual(expected[t.id]);
      const vars = Object.fromEntries(expected[t.id]!.map((name) => [name, `<<${name}>>`]));
      const messages = renderTemplate(t, vars);
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      for (const name of expected[t.id]!) expect(messages[1]!.content).toContain(`<<${name}>>`);
      expect(messages[1]!.content).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('show a demonstration that the summary parser accepts', () => {
    const user = renderTemplate(PERSPHERE_SUMMARY_TEMPLATE, { query: 'q', documents: 'd' })[1]!.content;
    const demo = user.slice(user.indexOf('## Example of the format'));
    expect(parsePersphereSummary(demo, ['2', '3', '5', '7', '8', '9']).claims[1].perspectives).toHaveLength(
      2,
    );
    expect(PERSPHERE_EDITOR_TEMPLATE.user).toContain('<perspective refs="4, 11">');
  });

  it('formats documents one per line with their ids', () => {
    expect(
      formatPersphereDocuments([
        { id: 205, text: 'Memes are\nart.' },
        { id: '9', text: ' x ' },
      ]),
    ).toBe('[205] Memes are art.\n[9] x');
  });
});
