import { describe, expect, test } from "bun:test";
import { MESSAGES, normalizeUrl, startBlocker, validateComparison, validateTarget } from "./validation";

describe("create comparison rules (spec §5)", () => {
  test("name is required, after trimming", () => {
    expect(validateComparison({ name: "   ", description: "" }).errors.name).toBe("Comparison name is required");
  });
  test("name at most 100 characters", () => {
    expect(validateComparison({ name: "x".repeat(100), description: "" }).errors.name).toBeUndefined();
    expect(validateComparison({ name: "x".repeat(101), description: "" }).errors.name).toBe("Name must be under 100 characters");
  });
  test("description optional, at most 500, blank becomes null", () => {
    expect(validateComparison({ name: "a", description: "  " }).value.description).toBeNull();
    expect(validateComparison({ name: "a", description: "d".repeat(500) }).errors.description).toBeUndefined();
    expect(validateComparison({ name: "a", description: "d".repeat(501) }).errors.description).toBe(
      "Description must be under 500 characters",
    );
  });
});

describe("add target rules (spec §5)", () => {
  test("url must be a web address", () => {
    for (const bad of ["", "not a url", "hello", "ftp://example.com", "javascript:alert(1)", "http://"])
      expect(validateTarget({ url: bad, label: "A" }).errors.url).toBe("Please enter a valid URL");
  });
  test("a bare domain means https", () => {
    expect(normalizeUrl("acme.com")).toBe("https://acme.com/");
    expect(normalizeUrl("  http://127.0.0.1:8080/x ")).toBe("http://127.0.0.1:8080/x");
    expect(normalizeUrl("localhost:5000")).toBe("https://localhost:5000/");
  });
  test("label required and at most 50", () => {
    expect(validateTarget({ url: "a.com", label: " " }).errors.label).toBe("Label is required");
    expect(validateTarget({ url: "a.com", label: "l".repeat(50) }).errors.label).toBeUndefined();
    expect(validateTarget({ url: "a.com", label: "l".repeat(51) }).errors.label).toBe("Label must be under 50 characters");
  });
});

test("start needs a comparison and two sites", () => {
  expect(startBlocker(null, 5)).toBe(MESSAGES.noComparison);
  expect(startBlocker("c", 1)).toBe("At least 2 websites are required to run a comparison");
  expect(startBlocker("c", 2)).toBeNull();
});
