import { Badge, Button, Card, Flex, Grid, Text } from "@radix-ui/themes";
import { FileTextIcon, LockClosedIcon, PersonIcon, ReaderIcon } from "@radix-ui/react-icons";
import type { SecurityReport } from "#server/modules/admin/model";
import { formatCount } from "../format";

interface Props {
  /** null until the report has been read. */
  report: SecurityReport | null;
  onGenerateKey(): void;
  onManageUsers(): void;
  onAuditLogs(): void;
  onReport(): void;
}

function Fig({ label, value, tone }: { label: string; value: string; tone?: "red" | "green" }) {
  return (
    <Card>
      <Text as="p" size="2" color="gray">
        {label}
      </Text>
      <Text size="5" weight="bold" color={tone}>
        {value}
      </Text>
    </Card>
  );
}

export function SecurityTab({ report, onGenerateKey, onManageUsers, onAuditLogs, onReport }: Props) {
  const n = (v: number | undefined) => (report && v !== undefined ? formatCount(v) : "…");
  return (
    <Flex direction="column" gap="3">
      <Grid columns={{ initial: "2", md: "4" }} gap="3" aria-busy={!report || undefined}>
        <Fig label="Users" value={n(report?.users)} />
        <Fig label="Admins" value={n(report?.admins)} />
        <Fig
          label="Failed sign-ins (24 h)"
          value={n(report?.failedSignIns24h)}
          tone={report && report.failedSignIns24h > 0 ? "red" : undefined}
        />
        <Fig label="Active API keys" value={n(report?.activeApiKeys)} />
      </Grid>
      {report && (
        <Flex gap="2" wrap="wrap">
          <Badge color={report.https ? "green" : "amber"} highContrast>
            {report.https ? "Served over https" : "Not served over https"}
          </Badge>
          <Badge color={report.secureCookies ? "green" : "amber"} highContrast>
            {report.secureCookies ? "Session cookies are Secure" : "Session cookies lack Secure"}
          </Badge>
        </Flex>
      )}
      <Card>
        <Grid columns={{ initial: "1", sm: "2" }} gap="2">
          <Button variant="soft" onClick={onGenerateKey}>
            <LockClosedIcon aria-hidden="true" />
            Generate API Key
          </Button>
          <Button variant="soft" onClick={onManageUsers}>
            <PersonIcon aria-hidden="true" />
            Manage Users
          </Button>
          <Button variant="soft" onClick={onAuditLogs}>
            <ReaderIcon aria-hidden="true" />
            View Audit Logs
          </Button>
          <Button variant="soft" onClick={onReport}>
            <FileTextIcon aria-hidden="true" />
            Security Report
          </Button>
        </Grid>
      </Card>
    </Flex>
  );
}
