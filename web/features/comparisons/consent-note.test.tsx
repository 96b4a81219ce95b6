import "#tests/support/dom";
import { afterEach, expect, test } from "bun:test";
const { cleanup } = await import("@testing-library/react");
const { ConsentNote, consentText } = await import("./components/results/consent-note");
const { $, renderUi } = await import("./test-utils");
const { extraction, snapshot } = await import("./test-fixtures");

afterEach(cleanup);

test("says what the capture did about a cookie banner, one line per snapshot", () => {
  expect(consentText({ found: false }, 0)).toBe("No cookie banner");
  expect(consentText({ found: true, cmp: "onetrust", action: "rejected" }, 0)).toBe("Cookie banner (OneTrust) rejected");
  expect(consentText({ found: true, cmp: "cybotcookiebot", action: "accepted" }, 0)).toBe("Cookie banner (Cookiebot) accepted");
  expect(consentText({ found: true, cmp: "nba.com", action: "rejected", hidden: true }, 0)).toBe(
    "Cookie banner (nba.com) hidden, no choice made",
  );
  expect(consentText({ found: true, cmp: "onetrust", action: "kept" }, 1)).toBe(
    "Cookie banner (OneTrust) kept on screen · masked from findings, scores and changes",
  );
  expect(consentText({ found: true, cmp: null, action: "unhandled" }, 1)).toBe(
    "Cookie banner no rule recognises, left on screen · masked from findings, scores and changes",
  );
  expect(consentText({ found: true, cmp: "onetrust", action: "unhandled" }, 1)).toBe(
    "Cookie banner (OneTrust) could not be answered, left on screen · masked from findings, scores and changes",
  );
});

test("shown under the screenshot; nothing for a capture made before consent handling", () => {
  const s = snapshot("s1", "t1", "desktop", {
    consent: { found: true, cmp: null, action: "unhandled" },
    extraction: extraction({ masks: [{ x: 24, y: 689, width: 380, height: 187 }] }),
  });
  renderUi(<ConsentNote snapshot={s} />);
  expect($().getByTestId("consent-note").textContent).toBe(
    "Cookie banner no rule recognises, left on screen · masked from findings, scores and changes",
  );
  cleanup();
  renderUi(<ConsentNote snapshot={snapshot("s2", "t1", "desktop")} />);
  expect($().queryByTestId("consent-note")).toBeNull();
});
