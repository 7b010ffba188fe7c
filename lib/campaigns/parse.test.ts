import { describe, expect, it } from "vitest";

import { MAX_CAMPAIGN_ROWS, parseCampaignCsv, repeatedTags } from "./parse";

const enc = (text: string) => new TextEncoder().encode(text);

describe("parseCampaignCsv", () => {
  it("reads a comma file with a BOM, any header order and case, extra columns ignored", () => {
    const out = parseCampaignCsv(enc('\uFEFFAmount,Member,TAG,Description\r\n1500,Ada,ada.o,"Dues, November"\r\n2,000.50,x,bola,Dues\r\n'));
    // "2,000.50" unquoted in a comma file splits; the row is then checked and found wanting.
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.rows[0]).toMatchObject({ row: 1, tag: "ada.o", valid: { tag: "ada.o", amount: "1500.00", description: "Dues, November" }, error: null });
    expect(out.rows[1]?.valid).toBeNull();
  });

  it("reads a semicolon file with quoted fields holding separators and quotes", () => {
    const out = parseCampaignCsv(enc('tag;amount;description\n@kemi;"2,000.50";"School fees; term ""1"""\nlola;100;Bill\n'));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.rows.map((r) => r.valid)).toEqual([
      { tag: "kemi", amount: "2000.50", description: 'School fees; term "1"', businessReference: null },
      { tag: "lola", amount: "100.00", description: "Bill", businessReference: null },
    ]);
  });

  it("marks a row that fails the form's schema invalid, with the reason, and keeps the others", () => {
    const out = parseCampaignCsv(enc("tag,amount,description\nok.one,10,Fine\nx,-5,\n"));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.rows[0]?.error).toBeNull();
    expect(out.rows[1]?.valid).toBeNull();
    expect(out.rows[1]?.error).toMatch(/tag: .*2 characters.*amount: .*description: /);
  });

  it("refuses a file without one of the columns, saying which", () => {
    const out = parseCampaignCsv(enc("tag,price,note\na.b,1,x\n"));
    expect(out).toMatchObject({ ok: false, status: 422 });
    if (!out.ok) expect(out.message).toContain("amount, description");
  });

  it("refuses files that are not CSV text, empty, too big or too long", () => {
    expect(parseCampaignCsv(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]))).toMatchObject({ ok: false, status: 415 });
    expect(parseCampaignCsv(enc("tag,amount,description\n\u0000\u0001"))).toMatchObject({ ok: false, status: 415 });
    expect(parseCampaignCsv(enc(""))).toMatchObject({ ok: false, status: 422 });
    expect(parseCampaignCsv(enc("tag,amount,description\n"))).toMatchObject({ ok: false, status: 422 });
    expect(parseCampaignCsv(new Uint8Array(2 * 1024 * 1024 + 1).fill(65))).toMatchObject({ ok: false, status: 413 });
    const long = `tag,amount,description\n${"ab,1,x\n".repeat(MAX_CAMPAIGN_ROWS + 1)}`;
    expect(parseCampaignCsv(enc(long))).toMatchObject({ ok: false, status: 413 });
    expect(parseCampaignCsv(enc('tag,amount,description\n"unclosed,1,x\n'))).toMatchObject({ ok: false, status: 422 });
  });

  it("flags tags repeated in the file, whatever their case", () => {
    const out = parseCampaignCsv(enc("tag,amount,description\nAda.O,1,a\nada.o,2,b\nbola,3,c\n"));
    expect(out.ok).toBe(true);
    if (out.ok) expect([...repeatedTags(out.rows)]).toEqual(["ada.o"]);
  });

  it("takes a 10,000-row file", () => {
    const rows = Array.from({ length: MAX_CAMPAIGN_ROWS }, (_, i) => `member.${i},${(i % 900) + 100}.50,Dues ${i}`).join("\n");
    const out = parseCampaignCsv(enc(`tag,amount,description\n${rows}\n`));
    expect(out.ok && out.rows.length).toBe(MAX_CAMPAIGN_ROWS);
    expect(out.ok && out.rows.every((r) => r.error === null)).toBe(true);
  });
});
