import { expect, test } from "bun:test";
import { headingAnnotations, pageFrame, toPercentBox } from "./overlay-geometry";
import { extraction } from "./test-fixtures";

const shot = (width: number, height: number, capturedHeight: number, viewport: "desktop" | "mobile" = "desktop") => ({
  width,
  height,
  viewport,
  extraction: { capturedHeight },
});

test("the page frame in CSS px, whatever the device pixel ratio", () => {
  expect(pageFrame(shot(1440, 3000, 3000))).toEqual({ cssWidth: 1440, cssHeight: 3000 });
  expect(pageFrame(shot(1170, 6000, 2000, "mobile"))).toEqual({ cssWidth: 390, cssHeight: 2000 }); // DPR 3
  expect(pageFrame(shot(0, 0, 1800, "mobile"))).toEqual({ cssWidth: 390, cssHeight: 1800 });
});

test("boxes scale from page px to the displayed width", () => {
  const frame = { cssWidth: 1440, cssHeight: 2000 };
  expect(toPercentBox({ x: 720, y: 500, width: 360, height: 100 }, frame)).toEqual({ left: 50, top: 25, width: 25, height: 5 });
  // Clipped to the captured page; gone entirely when below the cap.
  expect(toPercentBox({ x: -10, y: 1900, width: 1500, height: 400 }, frame)).toEqual({ left: 0, top: 95, width: 100, height: 5 });
  expect(toPercentBox({ x: 0, y: 2100, width: 10, height: 10 }, frame)).toBeNull();
  expect(toPercentBox({ x: 0, y: 0, width: 0, height: 10 }, frame)).toBeNull();
});

test("each heading gets the font the scan measured for the same level and position", () => {
  const ex = extraction();
  ex.elements.headings = [
    { level: 2, text: "First h2", box: { x: 0, y: 0, width: 1, height: 1 }, aboveFold: true },
    { level: 1, text: "Title", box: { x: 0, y: 0, width: 1, height: 1 }, aboveFold: true },
    { level: 2, text: "Second h2", box: { x: 0, y: 0, width: 1, height: 1 }, aboveFold: true },
    { level: 3, text: "Unmeasured", box: { x: 0, y: 0, width: 1, height: 1 }, aboveFold: true },
  ];
  ex.typography.headings = [
    { level: 1, family: '"Playfair Display", serif', sizePx: 56, weight: 800, lineHeightPx: 60 },
    { level: 2, family: "Inter, sans-serif", sizePx: 32, weight: 700, lineHeightPx: 40 },
    { level: 2, family: "Inter, sans-serif", sizePx: 28.4, weight: 600, lineHeightPx: 36 },
  ];
  expect(headingAnnotations(ex).map((h) => [h.text, h.font])).toEqual([
    ["First h2", "Inter 32px / 700"],
    ["Title", "Playfair Display 56px / 800"],
    ["Second h2", "Inter 28px / 600"],
    ["Unmeasured", null],
  ]);
});
