import { SignupForm } from "#web/features/auth/components/signup-form";
import { AuthLayout } from "#web/features/marketing/components/auth-layout";

export const handle = { title: "Join the Rebellion" };

export function Component() {
  return (
    <AuthLayout
      title="Join the Rebellion"
      subtitle="Create your account and start tearing down competitor sites in minutes."
      pitch={{
        title: "Stop guessing what works. Start stealing it (ethically).",
        points: ["Free while we're in beta", "Desktop and mobile captures", "Cancel anytime — no hard feelings"],
      }}
    >
      <SignupForm />
    </AuthLayout>
  );
}
