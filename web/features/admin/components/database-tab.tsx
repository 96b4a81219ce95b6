import { Badge, Button, Card, Flex, Grid, Text } from "@radix-ui/themes";
import { ArchiveIcon, DownloadIcon } from "@radix-ui/react-icons";
import type { BackupStatus, DatabaseStats } from "#server/modules/admin/model";
import { formatBytes, formatCount, formatDateTime } from "../format";
import { Figure } from "./figure";

const STATUS: Record<BackupStatus, { label: string; color: "green" | "amber" | "red" | "gray" }> = {
  healthy: { label: "Healthy", color: "green" },
  overdue: { label: "Overdue", color: "amber" },
  failed: { label: "Failed", color: "red" },
  none: { label: "No backups yet", color: "gray" },
};

function Stat({ label, value, loading, testId }: { label: string; value: string; loading: boolean; testId?: string }) {
  return (
    <Card>
      <Text as="p" size="2" color="gray">
        {label}
      </Text>
      <Figure loading={loading} size="5" weight="bold" data-testid={testId}>
        {value}
      </Figure>
    </Card>
  );
}

interface Props {
  stats: DatabaseStats;
  loading: boolean;
  backingUp: boolean;
  onBackupNow(): void;
  onViewBackups(): void;
}

/** "SQLite 3.51.0, embedded …" or "PostgreSQL 15.14": the engine's own version, as the database reported it. */
function engineLabel(stats: DatabaseStats): string {
  const version = stats.engineDetail.replace(/^\S+\s*/, "");
  const name = stats.engine === "sqlite" ? "SQLite" : "PostgreSQL";
  const named = version ? `${name} ${version}` : name;
  return stats.engine === "sqlite" ? `${named}, embedded in this server's data folder` : named;
}

export function DatabaseTab({ stats, loading, backingUp, onBackupNow, onViewBackups }: Props) {
  const status = STATUS[stats.backupStatus];
  return (
    <Flex direction="column" gap="3">
      <Figure loading={loading} size="2" color="gray" data-testid="db-engine">
        Database: {engineLabel(stats)}
      </Figure>
      <Grid columns={{ initial: "2", md: "4" }} gap="3">
        <Stat label="Total Records" value={formatCount(stats.totalRecords)} loading={loading} testId="db-total-records" />
        <Stat label="Active Connections" value={formatCount(stats.connections)} loading={loading} />
        <Stat label="Avg Query Time" value={`${stats.queryTime} ms`} loading={loading} />
        <Stat label="Database Size" value={formatBytes(stats.dbSize)} loading={loading} />
      </Grid>
      <Figure loading={loading} size="2" color="gray" data-testid="history-storage">
        Run history: {formatCount(stats.historyRuns)} runs · {formatBytes(stats.historyBytes)} of screenshots
      </Figure>
      {stats.backupAdvice ? (
        <Card data-testid="backup-advice">
          <Text as="p" weight="medium">
            Backups
          </Text>
          <Text as="p" size="2" color="gray">
            {stats.backupAdvice}
          </Text>
        </Card>
      ) : (
        <Card>
          <Flex justify="between" align="center" gap="3" wrap="wrap">
            <Flex direction="column" gap="1">
              <Flex align="center" gap="2">
                <Text weight="medium">Backup Status</Text>
                <Badge color={loading ? "gray" : status.color} highContrast data-testid="backup-status">
                  {status.label}
                </Badge>
              </Flex>
              <Figure loading={loading} size="2" color="gray" data-testid="last-backup">
                Last backup: {formatDateTime(stats.lastBackup)}
                {stats.backupCount > 0 ? ` · ${stats.backupCount} kept` : ""}
              </Figure>
              {stats.lastBackupError && (
                <Text size="1" color="red">
                  Last attempt failed: {stats.lastBackupError}
                </Text>
              )}
            </Flex>
            <Flex gap="2">
              <Button onClick={onBackupNow} loading={backingUp}>
                <ArchiveIcon aria-hidden="true" />
                Backup Now
              </Button>
              <Button variant="soft" onClick={onViewBackups}>
                <DownloadIcon aria-hidden="true" />
                View Backups
              </Button>
            </Flex>
          </Flex>
        </Card>
      )}
    </Flex>
  );
}
