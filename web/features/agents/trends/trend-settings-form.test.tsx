import "#tests/support/dom";
import { expect, mock, test } from "bun:test";
import { Theme } from "@radix-ui/themes";
import { DEFAULT_TREND_SETTINGS } from "#server/modules/agents/model";
const { fireEvent, render, screen, waitFor } = await import("@testing-library/react");
const { TrendSettingsForm } = await import("./trend-settings-form");

const checkboxes = () => screen.getAllByRole("checkbox");

test("read-only for non-admins: every control is disabled and looks it, and there is no Save", () => {
  render(
    <Theme>
      <TrendSettingsForm settings={DEFAULT_TREND_SETTINGS} editable={false} onSave={async () => true} />
    </Theme>,
  );
  expect(checkboxes()).toHaveLength(10); // 2 sources + 8 trend types
  for (const box of checkboxes()) {
    expect((box as HTMLButtonElement).disabled).toBe(true);
    // Radix styles the disabled look from this attribute; a disabled <fieldset> alone doesn't set it.
    expect(box.hasAttribute("data-disabled")).toBe(true);
  }
  expect((screen.getByLabelText(/Frequency/) as HTMLInputElement).disabled).toBe(true);
  expect(screen.getByText("Only admins can change these; TrendHunter reads them on every scan.")).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Save settings" })).toBeNull();
});

test("admins change and save: the draft goes out as edited", async () => {
  const onSave = mock(async () => true);
  render(
    <Theme>
      <TrendSettingsForm settings={DEFAULT_TREND_SETTINGS} editable onSave={onSave} />
    </Theme>,
  );
  const typefaces = screen.getByRole("checkbox", { name: "Typefaces" });
  expect(typefaces.hasAttribute("data-disabled")).toBe(false);
  fireEvent.click(typefaces);
  fireEvent.change(screen.getByLabelText(/Frequency/), { target: { value: "60" } });
  fireEvent.change(document.getElementById("ts-keywords")!, { target: { value: "AI, pricing ,, " } });
  const save = screen.getByRole("button", { name: "Save settings" }) as HTMLButtonElement;
  fireEvent.click(save);
  await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
  // The form leaves its saving state once the save answered (and React is done with it).
  await waitFor(() => expect(save.disabled).toBe(false));
  await new Promise((r) => setTimeout(r, 20));
  const sent = (onSave.mock.calls[0] as unknown[])[0] as typeof DEFAULT_TREND_SETTINGS;
  expect(sent.trendTypes).not.toContain("typography");
  expect(sent.trendTypes).toHaveLength(7);
  expect(sent.frequency).toBe(60);
  expect(sent.customKeywords).toEqual(["AI", "pricing"]);
});
