import { Box, Flex, Grid, Tabs } from "@radix-ui/themes";
import { useState } from "react";
import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { AlertSettingsAnswer, OngoingAlerts as OngoingAlertsAnswer, SecurityReport } from "#server/modules/admin/model";
import { toast } from "#web/components/ui/toast";
import {
  ADMIN_ACTIVITY_LIMIT,
  createBackup,
  getSecurityReport,
  restartSystem,
  setMaintenance,
  startSystem,
  stopSystem,
} from "#web/features/admin/api";
import { AdminHeader } from "#web/features/admin/components/admin-header";
import { AdminsOnly } from "#web/features/admin/components/admins-only";
import { ApiKeysDialog } from "#web/features/admin/components/api-keys-dialog";
import { AuditDialog } from "#web/features/admin/components/audit-dialog";
import { BackupsDialog } from "#web/features/admin/components/backups-dialog";
import { ControlPanel } from "#web/features/admin/components/control-panel";
import { DatabaseTab } from "#web/features/admin/components/database-tab";
import { HealthBars } from "#web/features/admin/components/health-bars";
import { JobsPanel } from "#web/features/admin/jobs-panel";
import { MaintenanceBanner } from "#web/features/admin/components/maintenance-banner";
import { MetricsSummary } from "#web/features/admin/components/metrics-summary";
import { MonitoringTab } from "#web/features/admin/components/monitoring-tab";
import { OngoingAlerts } from "#web/features/admin/components/ongoing-alerts";
import { QuickStats } from "#web/features/admin/components/quick-stats";
import { SecurityReportDialog } from "#web/features/admin/components/security-report-dialog";
import { SecurityTab } from "#web/features/admin/components/security-tab";
import { SettingsTab } from "#web/features/admin/components/settings-tab";
import { SsoNewcomersCard } from "#web/features/admin/components/sso-newcomers-card";
import { UsersDialog } from "#web/features/admin/components/users-dialog";
import { formatBytes, healthOf } from "#web/features/admin/format";
import { PLACEHOLDER_DATABASE, PLACEHOLDER_METRICS } from "#web/features/admin/placeholders";
import { type AdminInitial, type LiveSubscribe, useAdminConsole } from "#web/features/admin/use-admin-console";
import { useOngoingAlerts } from "#web/features/admin/use-ongoing-alerts";
import { refreshSession } from "#web/features/auth/session";
import { useAuth } from "#web/features/auth/store";
import { useSession } from "#web/features/auth/use-session";
import { useLive } from "#web/features/live/store";
import { errorMessage } from "#web/lib/api";
import { onLiveMessage } from "#web/lib/live-socket";
import { isServer, load, serverUser } from "#web/lib/loader-context";

interface SuperAdminData extends AdminInitial {
  alerts: AlertSettingsAnswer | null;
  ongoing: OngoingAlertsAnswer | null;
}

export const handle = { title: "Super Admin" };

const NOTHING: SuperAdminData = {
  metrics: null,
  database: null,
  system: null,
  maintenance: null,
  alerts: null,
  ongoing: null,
  agents: null,
  activity: null,
};

export async function loader({ context }: LoaderFunctionArgs): Promise<SuperAdminData> {
  // Non-admins see the admins-only screen; asking the admin API for them would only collect 403s.
  const viewer = isServer ? serverUser(context) : useAuth.getState().user;
  if (viewer?.role !== "admin") return NOTHING;
  const [metrics, database, system, maintenance, alerts, ongoing, agents, activity] = await Promise.all([
    load(context, (api) => api.admin["system-metrics"].get()),
    load(context, (api) => api.admin["database-stats"].get()),
    load(context, (api) => api.system.status.get()),
    load(context, (api) => api.admin.maintenance.get()),
    load(context, (api) => api.admin["alert-settings"].get()),
    load(context, (api) => api.admin.alerts.get()),
    load(context, (api) => api.agents.get()),
    load(context, (api) => api.activity.get({ query: { limit: ADMIN_ACTIVITY_LIMIT } })),
  ]);
  return { metrics, database, system, maintenance, alerts, ongoing, agents, activity };
}

const bearer = { token: () => useAuth.getState().accessToken, refresh: refreshSession };
/** SYSTEM_METRICS, ALERT and the rest of the feed reach the console through the app's one socket. */
const subscribe: LiveSubscribe = (handler) => onLiveMessage("*", handler);

function Console({ data, userId }: { data: SuperAdminData; userId: string }) {
  const c = useAdminConsole(data, subscribe);
  const ongoing = useOngoingAlerts(data.ongoing, subscribe);
  const connected = useLive((s) => s.connected);
  const liveSystemActive = useLive((s) => s.systemActive);
  const [tab, setTab] = useState("monitoring");
  const [systemBusy, setSystemBusy] = useState(false);
  const [maintenanceBusy, setMaintenanceBusy] = useState(false);
  const [backingUp, setBackingUp] = useState(false);
  const [backupVersion, setBackupVersion] = useState(0);
  const [report, setReport] = useState<SecurityReport | null>(null);
  const [dialog, setDialog] = useState<null | "backups" | "keys" | "users" | "audit" | "report">(null);

  const metricsLoading = c.metrics === null;
  const metrics = c.metrics ?? PLACEHOLDER_METRICS;
  const databaseLoading = c.database === null;
  const database = c.database ?? PLACEHOLDER_DATABASE;
  const systemActive = liveSystemActive ?? c.systemActive;
  const maintenanceOn = c.maintenance?.enabled ?? false;

  async function system(action: "start" | "stop" | "restart") {
    setSystemBusy(true);
    try {
      if (action === "start") {
        await startSystem();
        c.setSystemActive(true);
        toast({ title: "System Started", description: "AI Design Intelligence System activated" });
      } else if (action === "stop") {
        await stopSystem();
        c.setSystemActive(false);
        toast({ title: "System Stopped", description: "System deactivated" });
      } else {
        await restartSystem();
        c.setSystemActive(true);
        toast({ title: "System Restarted", description: "All agents are back on duty." });
      }
    } catch (e) {
      const fallback = { start: "Failed to start system", stop: "Failed to stop system", restart: "Failed to restart system" }[action];
      // A failed restart is reported as a failure, not as "initiated".
      toast({ title: action === "restart" ? "Restart Failed" : "Error", description: errorMessage(e, fallback), variant: "destructive" });
    } finally {
      setSystemBusy(false);
    }
  }

  async function toggleMaintenance(next: boolean) {
    setMaintenanceBusy(true);
    try {
      const state = await setMaintenance(next);
      c.setMaintenance(state);
      toast({ title: state.enabled ? "Maintenance Mode Enabled" : "Maintenance Mode Disabled" });
    } catch (e) {
      // The switch stays where the server left it: no pretend success.
      toast({ title: "Error", description: errorMessage(e, "Failed to change maintenance mode"), variant: "destructive" });
    } finally {
      setMaintenanceBusy(false);
    }
  }

  async function backupNow() {
    setBackingUp(true);
    try {
      const b = await createBackup();
      toast({ title: "Backup Complete", description: `${b.name} (${formatBytes(b.size)}) passed its integrity check.` });
      setBackupVersion((v) => v + 1);
    } catch (e) {
      toast({ title: "Backup Failed", description: errorMessage(e, "Unable to back up the database."), variant: "destructive" });
    } finally {
      setBackingUp(false);
      c.refreshDatabase();
    }
  }

  function loadReport() {
    getSecurityReport()
      .then(setReport)
      .catch((e) => toast({ title: "Error", description: errorMessage(e, "Failed to load the security report"), variant: "destructive" }));
  }

  return (
    <Box p={{ initial: "4", md: "6" }}>
      <AdminHeader
        systemActive={systemActive}
        health={metricsLoading ? null : healthOf(metrics)}
        refreshing={c.refreshing}
        onRefresh={() => void c.refresh()}
      />
      {maintenanceOn && <MaintenanceBanner since={c.maintenance?.since ?? null} by={c.maintenance?.by ?? null} />}
      <Flex direction="column" gap="4">
        <OngoingAlerts state={ongoing} />
        <MetricsSummary metrics={metrics} loading={metricsLoading} />
        <Grid columns={{ initial: "1", lg: "3" }} gap="3">
          <ControlPanel
            maintenance={maintenanceOn}
            maintenanceBusy={maintenanceBusy || c.maintenance === null}
            onToggleMaintenance={(v) => void toggleMaintenance(v)}
            systemActive={systemActive}
            systemBusy={systemBusy}
            onStart={() => void system("start")}
            onStop={() => void system("stop")}
            onRestart={() => void system("restart")}
            refreshing={c.refreshing}
            onRefresh={() => void c.refresh()}
          />
          <HealthBars metrics={metrics} loading={metricsLoading} />
          <QuickStats metrics={metrics} loading={metricsLoading} />
        </Grid>
        <Tabs.Root
          value={tab}
          onValueChange={(v) => {
            setTab(v);
            if (v === "security") loadReport();
          }}
        >
          <Tabs.List>
            <Tabs.Trigger value="monitoring">Monitoring</Tabs.Trigger>
            <Tabs.Trigger value="database">Database</Tabs.Trigger>
            <Tabs.Trigger value="security">Security</Tabs.Trigger>
            <Tabs.Trigger value="settings">Settings</Tabs.Trigger>
          </Tabs.List>
          <Box pt="3">
            <Tabs.Content value="monitoring">
              <MonitoringTab agents={c.agents} activity={c.activity} connected={connected} />
            </Tabs.Content>
            <Tabs.Content value="database">
              <DatabaseTab
                stats={database}
                loading={databaseLoading}
                backingUp={backingUp}
                onBackupNow={() => void backupNow()}
                onViewBackups={() => setDialog("backups")}
              />
              {/* The spec's four tabs stay four: jobs live in the database, so they are listed under it. */}
              <Box pt="4">
                <JobsPanel />
              </Box>
            </Tabs.Content>
            <Tabs.Content value="security">
              <SecurityTab
                report={report}
                onGenerateKey={() => setDialog("keys")}
                onManageUsers={() => setDialog("users")}
                onAuditLogs={() => setDialog("audit")}
                onReport={() => {
                  setReport(null);
                  loadReport();
                  setDialog("report");
                }}
              />
            </Tabs.Content>
            <Tabs.Content value="settings">
              <Flex direction="column" gap="3">
                <SettingsTab initial={data.alerts} />
                <SsoNewcomersCard />
              </Flex>
            </Tabs.Content>
          </Box>
        </Tabs.Root>
      </Flex>
      <BackupsDialog
        open={dialog === "backups"}
        onOpenChange={(o) => setDialog(o ? "backups" : null)}
        version={backupVersion}
        auth={bearer}
      />
      <ApiKeysDialog open={dialog === "keys"} onOpenChange={(o) => setDialog(o ? "keys" : null)} />
      <UsersDialog
        open={dialog === "users"}
        onOpenChange={(o) => {
          setDialog(o ? "users" : null);
          if (!o) loadReport();
        }}
        currentUserId={userId}
      />
      <AuditDialog open={dialog === "audit"} onOpenChange={(o) => setDialog(o ? "audit" : null)} />
      <SecurityReportDialog open={dialog === "report"} onOpenChange={(o) => setDialog(o ? "report" : null)} report={report} />
    </Box>
  );
}

export function Component() {
  const data = useLoaderData() as SuperAdminData;
  const { user } = useSession();
  if (!user) return null;
  if (user.role !== "admin") return <AdminsOnly />;
  return <Console data={data} userId={user.id} />;
}
