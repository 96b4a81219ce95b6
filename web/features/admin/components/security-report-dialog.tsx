import { Badge, DataList, Dialog, Flex, Spinner, Text } from "@radix-ui/themes";
import type { SecurityReport } from "#server/modules/admin/model";
import { formatCount, formatDateTime } from "../format";
import { CloseFooter } from "#web/components/ui/close-footer";

function Check({ ok, yes, no }: { ok: boolean; yes: string; no: string }) {
  return (
    <Badge color={ok ? "green" : "amber"} highContrast>
      {ok ? yes : no}
    </Badge>
  );
}

export function SecurityReportDialog({
  open,
  onOpenChange,
  report,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  report: SecurityReport | null;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>Security Report</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {report ? `Generated ${formatDateTime(report.generatedAt)}` : "Generating…"}
        </Dialog.Description>
        {!report ? (
          <Flex align="center" gap="2">
            <Spinner /> <Text size="2">Reading the figures…</Text>
          </Flex>
        ) : (
          <DataList.Root data-testid="security-report">
            <DataList.Item>
              <DataList.Label>Users</DataList.Label>
              <DataList.Value>{formatCount(report.users)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Active admins</DataList.Label>
              <DataList.Value>{formatCount(report.admins)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Disabled accounts</DataList.Label>
              <DataList.Value>{formatCount(report.disabledUsers)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Failed sign-ins (24 h)</DataList.Label>
              <DataList.Value>{formatCount(report.failedSignIns24h)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Active API keys</DataList.Label>
              <DataList.Value>{formatCount(report.activeApiKeys)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Transport</DataList.Label>
              <DataList.Value>
                <Check ok={report.https} yes="https" no="Plain http: put TLS in front" />
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Session cookies</DataList.Label>
              <DataList.Value>
                <Check ok={report.secureCookies} yes="Secure, HttpOnly, SameSite=Strict" no="HttpOnly, SameSite=Strict, not Secure" />
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Maintenance mode</DataList.Label>
              <DataList.Value>{report.maintenance ? "On" : "Off"}</DataList.Value>
            </DataList.Item>
          </DataList.Root>
        )}
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
