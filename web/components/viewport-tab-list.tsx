import { DesktopIcon, MobileIcon } from "@radix-ui/react-icons";
import { Flex, Tabs } from "@radix-ui/themes";

/** The Desktop / Mobile tabs of a results page (inside a Tabs.Root whose values are the viewports). */
export function ViewportTabList() {
  return (
    <Tabs.List>
      <Tabs.Trigger value="desktop">
        <Flex gap="2" align="center">
          <DesktopIcon /> Desktop
        </Flex>
      </Tabs.Trigger>
      <Tabs.Trigger value="mobile">
        <Flex gap="2" align="center">
          <MobileIcon /> Mobile
        </Flex>
      </Tabs.Trigger>
    </Tabs.List>
  );
}
