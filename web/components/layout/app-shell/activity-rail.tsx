import { Cross2Icon } from "@radix-ui/react-icons";
import { Badge, Flex, IconButton, Skeleton, Text } from "@radix-ui/themes";
import { ActivityEntry } from "./activity-item";
import { useNow } from "./relative-time";
import type { ShellActivityItem, ShellDataState } from "./types";

export interface ActivityRailProps {
  id: string;
  items: ShellActivityItem[];
  state: ShellDataState;
  onClose(): void;
}

export function ActivityRail({ id, items, state, onClose }: ActivityRailProps) {
  const now = useNow(15_000);
  const running = items.filter((i) => i.status === "running").length;
  return (
    <aside id={id} className="di-rail" aria-labelledby={`${id}-heading`}>
      <Flex align="center" justify="between" className="di-rail-header">
        <Flex align="center" gap="2">
          <Text id={`${id}-heading`} size="2" weight="bold">
            Activity
          </Text>
          {running > 0 && (
            <Badge size="1" color="blue" variant="soft" highContrast>
              {running} running
            </Badge>
          )}
        </Flex>
        <IconButton size="1" variant="ghost" color="gray" onClick={onClose} aria-label="Hide activity rail">
          <Cross2Icon />
        </IconButton>
      </Flex>
      {/* A scrolling list of plain text: focusable so keyboard users can scroll it too. */}
      <div className="di-rail-body" tabIndex={0} role="region" aria-label="Activity entries">
        {state === "loading" ? (
          <Flex direction="column" gap="3" aria-busy>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height="64px" />
            ))}
          </Flex>
        ) : items.length === 0 ? (
          <div className="di-empty di-rail-empty">
            <Text as="p" size="2" weight="medium">
              No activity yet
            </Text>
            <Text as="p" size="1" color="gray">
              {state === "unavailable"
                ? "The activity feed is not reachable right now. Entries will appear here once it is."
                : "Agent runs and comparison captures will stream in here as they happen."}
            </Text>
          </div>
        ) : (
          <ol className="di-rail-list" aria-label="Recent activity">
            {items.map((item) => (
              <li key={item.id}>
                <ActivityEntry item={item} now={now} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </aside>
  );
}
