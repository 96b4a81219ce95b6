import { Badge, Card, Flex, Heading, IconButton, Link as RadixLink, Text, Tooltip } from "@radix-ui/themes";
import { TrashIcon } from "@radix-ui/react-icons";
import type { ReactNode } from "react";
import type { TargetDto } from "#server/modules/comparisons/model";
import { DisabledReason } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import { StatusBadge } from "./status-badge";

interface Props {
  targets: TargetDto[];
  /** Removing is off while a run is capturing them, and for a viewer. */
  canDelete: boolean;
  onDelete(target: TargetDto): void;
  /** What a site's card shows under it (its pages: the route composes them from the pages feature). */
  siteExtra?(target: TargetDto, editable: boolean): ReactNode;
}

export function TargetList({ targets, canDelete, onDelete, siteExtra }: Props) {
  const viewerReason = useCanEdit().reason;
  return (
    <Card size="3">
      <Flex align="center" gap="2" wrap="wrap" mb="3">
        <Heading as="h3" size="4">
          Websites in Comparison
        </Heading>
        <Badge variant="surface" radius="full" aria-label={`${targets.length} websites`}>
          {targets.length}
        </Badge>
        {targets.length < 2 && (
          <Text size="2" color="gray">
            (Add at least 2 websites to run comparison)
          </Text>
        )}
      </Flex>
      {targets.length === 0 ? (
        <Text as="p" size="2" color="gray">
          No websites added yet. Add your first competitor website above to get started.
        </Text>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {targets.map((t) => (
              <li key={t.id}>
                <Card variant="surface">
                  <Flex align="center" gap="3" justify="between">
                    <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                      <Flex align="center" gap="2">
                        <Text weight="bold" size="2" truncate>
                          {t.label}
                        </Text>
                        <StatusBadge status={t.status} />
                      </Flex>
                      <RadixLink href={t.url} target="_blank" rel="noopener noreferrer" size="1" color="gray" truncate>
                        {t.url}
                      </RadixLink>
                      {t.error && (t.status === "failed" || t.status === "completed") && (
                        // Completed with an error: some of the site's pages were captured, these were not.
                        <Text size="1" color={t.status === "failed" ? "red" : "amber"}>
                          {t.error}
                        </Text>
                      )}
                    </Flex>
                    {canDelete ? (
                      <Tooltip content={`Remove ${t.label}`}>
                        <IconButton variant="ghost" color="red" aria-label={`Remove ${t.label}`} onClick={() => onDelete(t)}>
                          <TrashIcon />
                        </IconButton>
                      </Tooltip>
                    ) : (
                      // A disabled button shows no tooltip of its own: the wrapper says why it is off.
                      <DisabledReason reason={viewerReason ?? "Can't remove a site while the analysis runs"}>
                        <IconButton variant="ghost" color="red" aria-label={`Remove ${t.label}`} disabled>
                          <TrashIcon />
                        </IconButton>
                      </DisabledReason>
                    )}
                  </Flex>
                  {siteExtra?.(t, canDelete)}
                </Card>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Card>
  );
}
