import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import type { ActivityEntryDto } from "#server/modules/activity/model";
import { RelativeTime } from "#web/components/ui/relative-time";
import { ACTIVITY_STATUS_TONE } from "./labels";

/** Spec §2: message, details, agent, status and relative time per item; Live or Offline badge. */
export function ActivityStream({ entries, live }: { entries: ActivityEntryDto[]; live: boolean }) {
  return (
    <Card size="2" className="mc-stream">
      <Flex align="center" justify="between" mb="3" gap="3">
        <Heading as="h2" size="4" id="mc-stream-title">
          Live Activity Stream
        </Heading>
        <Flex align="center" gap="3">
          <Badge color={live ? "green" : "gray"} variant="soft" highContrast data-testid="stream-badge">
            <span className={`mc-dot ${live ? "mc-dot-live" : "mc-dot-gray"}`} aria-hidden />
            {live ? "Live" : "Offline"}
          </Badge>
          <Link to="/activity" className="mc-link">
            Full log
          </Link>
        </Flex>
      </Flex>
      {entries.length === 0 ? (
        <Text color="gray" size="2">
          Quiet so far. Launch the system or run a comparison and things start happening here.
        </Text>
      ) : (
        <div className="mc-stream-scroll" tabIndex={0} role="region" aria-label="Recent activity">
          <ol className="mc-stream-list" aria-labelledby="mc-stream-title" aria-live="polite" data-testid="activity-stream">
            {entries.map((e) => (
              <li key={e.id} className="mc-stream-item" data-status={e.status}>
                <Flex justify="between" gap="3" align="start">
                  <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                    <Text size="2" weight="medium">
                      {e.message}
                    </Text>
                    {e.details && (
                      <Text size="1" color="gray">
                        {e.details}
                      </Text>
                    )}
                    <Flex gap="2" align="center" wrap="wrap">
                      <Badge size="1" variant="outline" color="gray">
                        {e.agentName ?? "System"}
                      </Badge>
                      <Badge size="1" variant="soft" highContrast color={ACTIVITY_STATUS_TONE[e.status] ?? "gray"}>
                        {e.status}
                      </Badge>
                    </Flex>
                  </Flex>
                  <Text size="1" color="gray" className="mc-nowrap">
                    <RelativeTime iso={e.createdAt} />
                  </Text>
                </Flex>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  );
}
