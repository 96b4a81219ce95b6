import { describe, expect, test } from "bun:test";
import { Theme } from "@radix-ui/themes";
import { renderToStaticMarkup } from "react-dom/server";
import { THEME_SETTINGS } from "#web/lib/theme-settings";
import { ThemeFrame } from "./theme-frame";

describe("the marketing pages' theme element", () => {
  test("is the element the app's root <Theme> draws, attribute for attribute", () => {
    const app = renderToStaticMarkup(
      <Theme {...THEME_SETTINGS} hasBackground>
        <p>x</p>
      </Theme>,
    );
    const marketing = renderToStaticMarkup(
      <ThemeFrame>
        <p>x</p>
      </ThemeFrame>,
    );
    expect(app).toContain('data-accent-color="violet"');
    expect(marketing).toBe(app);
  });
});
