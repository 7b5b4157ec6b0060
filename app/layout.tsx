import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Header } from "./_components/header";
import { RefreshOnRestore } from "./_components/refresh-on-restore";
import { WelcomeNotice } from "./_components/welcome-notice";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quiltboard", template: "%s · Quiltboard" },
  description: "Competitions whose leaderboard cannot be overfit: every score goes through a privacy-calibrated Thresholdout.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <RefreshOnRestore />
        <Header />
        <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
          <WelcomeNotice />
          {children}
        </main>
        <footer className="mx-auto max-w-6xl px-4 pb-10 pt-4 text-sm text-slate-500 sm:px-6">
          Quiltboard — leaderboards you can trust. Scores are released through Thresholdout (Dwork et al. 2015) calibrated with Bayesian differential privacy (Zhao 2017).
        </footer>
      </body>
    </html>
  );
}
