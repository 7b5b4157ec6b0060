// Every e2e test file: each answer from an app under test is held to the OpenAPI document it serves (test/support/contract.ts).
import { installContract } from "@/test/support/contract";

installContract();
