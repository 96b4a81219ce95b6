import "#tests/support/dom";
import { afterEach, expect, test } from "bun:test";
const { cleanup } = await import("@testing-library/react");
const { PageSignals, timingLine, visualTimingLines } = await import("./components/results/page-signals");
const { $, renderUi } = await import("./test-utils");
const { extraction } = await import("./test-fixtures");

afterEach(cleanup);

const base = extraction();
const sample = (fcpMs: number, lcpMs: number) => ({ ttfbMs: 90, fcpMs, lcpMs, cls: 0, lcpElement: "img#hero" });

test("colour roles, drawn next to declared fonts, timing with its spread, samples, profile, browser and LCP element", () => {
  const ex = extraction({
    palette: { ...base.palette, roles: { background: "#ffffff", text: "#1f2937", primary: "#2563eb", secondary: null } },
    typography: {
      ...base.typography,
      families: [{ family: '"Roboto Slab", serif', share: 0.8 }],
      rendered: [
        { family: "Liberation Serif", share: 0.79 },
        { family: "DejaVu Sans", share: 0.21 },
      ],
      notLoaded: [{ family: '"Roboto Slab"', share: 0.8 }],
    },
    timing: {
      ...base.timing,
      fcpMs: 412,
      lcpMs: 1210,
      lcpElement: "img#hero",
      samples: [sample(380, 1150), sample(412, 1210), sample(456, 1300)],
      spread: {
        ttfbMs: { min: 90, max: 90 },
        fcpMs: { min: 380, max: 456 },
        lcpMs: { min: 1150, max: 1300 },
        cls: { min: 0, max: 0 },
        domContentLoadedMs: null,
        loadMs: null,
      },
      profile: "lighthouse-mobile",
      browser: "Chromium headless shell 156.0.8078.79",
    },
  });
  renderUi(<PageSignals ex={ex} />);
  const box = $().getByTestId("page-signals");
  expect(box.textContent).toContain("FCP 412 ms ± 38 ms");
  expect(box.textContent).toContain("LCP 1.21 s ± 75 ms");
  expect(box.textContent).toContain("3 samples");
  expect($().getByTestId("role-background").textContent).toBe("Background #ffffff");
  expect($().getByTestId("role-primary").textContent).toBe("Primary #2563eb");
  expect($().getByTestId("role-secondary").textContent).toBe("Secondary none");
  expect($().getByTestId("fonts-drawn").textContent).toBe("Drawn: Liberation Serif 79%, DejaVu Sans 21%");
  expect($().getByTestId("fonts-declared").textContent).toBe("Declared: Roboto Slab 80%");
  expect($().getByTestId("fonts-not-loaded").textContent).toContain("Roboto Slab");
  expect($().getByTestId("timing-profile").textContent).toBe(
    "Throttled: Lighthouse mobile preset (slow 4G, 4× CPU slowdown) · in Chromium headless shell 156.0.8078.79 · LCP element: img#hero",
  );
});

test("samples taken over from earlier captures of the page are counted as such", () => {
  const at = "2030-01-01T10:00:00.000Z";
  const t = { ...base.timing, samples: [sample(400, 900), { ...sample(380, 880), fromRunAt: at }, { ...sample(420, 950), fromRunAt: at }] };
  expect(timingLine(t)).toBe("TTFB 100 ms · FCP 400 ms · LCP 900 ms · 3 samples (2 from earlier runs)");
});

test("an older capture shows one unthrottled sample and no invented roles or drawn fonts", () => {
  expect(timingLine(base.timing)).toBe("TTFB 100 ms · FCP 400 ms · LCP 900 ms · 1 sample");
  renderUi(<PageSignals ex={base} />);
  expect($().queryByTestId("palette-roles")).toBeNull();
  expect($().getByTestId("fonts-drawn").textContent).toBe("Drawn fonts: not recorded for this capture");
  expect($().queryByTestId("fonts-not-loaded")).toBeNull();
  expect($().getByTestId("timing-profile").textContent).toBe("Unthrottled (this machine's network and CPU)");
  expect($().getByTestId("page-signals").textContent).not.toContain("±");
});

test("Speed Index, visually complete and TBT beside LCP, with how they were measured", () => {
  const ex = extraction({
    timing: {
      ...base.timing,
      speedIndexMs: 1400,
      visuallyCompleteMs: 2100,
      tbtMs: 30,
      measuredBy: {
        speedIndex: { method: "Filmstrip of the capture's own load: 14 trace screenshots, …", reason: null },
        tbt: { method: "Long Tasks API on the capture's own load: main-thread tasks over 50 ms …", reason: null },
      },
    },
  });
  expect(timingLine(ex.timing)).toBe("TTFB 100 ms · FCP 400 ms · LCP 900 ms · SI 1.40 s · TBT 30 ms · 1 sample");
  renderUi(<PageSignals ex={ex} />);
  expect($().getByTestId("page-signals").querySelector("summary")!.textContent).toBe(
    "Measured · LCP 900 ms · Speed Index 1.40 s · TBT 30 ms · 1 sample",
  );
  const lines = $().getAllByTestId("visual-timing");
  expect(lines.map((l) => l.textContent)).toEqual([
    "Speed Index 1.40 s, visually complete 2.10 s (Filmstrip of the capture's own load)",
    "TBT 30 ms (Long Tasks API on the capture's own load)",
  ]);
  expect(lines[0]!.getAttribute("title")).toContain("14 trace screenshots");
});

test("Speed Index and TBT not measured: the reason, never a figure; an older capture says it measured neither", () => {
  const t = {
    ...base.timing,
    speedIndexMs: null,
    visuallyCompleteMs: null,
    tbtMs: null,
    measuredBy: {
      speedIndex: { method: null, reason: "No frame of the load was recorded" },
      tbt: { method: null, reason: "The load had no first contentful paint, where blocking time starts" },
    },
  };
  expect(timingLine(t)).toBe("TTFB 100 ms · FCP 400 ms · LCP 900 ms · 1 sample");
  expect(visualTimingLines(t)).toEqual([
    "Speed Index not measured: No frame of the load was recorded",
    "TBT not measured: The load had no first contentful paint, where blocking time starts",
  ]);
  expect(visualTimingLines(base.timing)).toEqual(["Speed Index and TBT: not measured for this capture"]);
});

test("the typography legend names the drawn fonts before the declared ones", async () => {
  const { OverlayLegends } = await import("./components/results/overlays");
  const ex = extraction({ typography: { ...base.typography, rendered: [{ family: "Liberation Sans", share: 1 }] } });
  renderUi(<OverlayLegends ex={ex} on={new Set(["typography"])} />);
  const legend = $().getByTestId("overlay-legend").textContent ?? "";
  expect(legend).toContain("Drawn Liberation Sans 100");
  expect(legend).toContain("Declared Inter 80");
  expect(legend.indexOf("Drawn")).toBeLessThan(legend.indexOf("Declared"));
});
