export { anIssue, fakeTracker, json, problem, type SentRequest } from "@tracker/sdk/testing";
