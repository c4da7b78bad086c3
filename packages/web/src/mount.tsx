import { createRoot } from "react-dom/client";
import { Root } from "./app.js";

export function mount(element: HTMLElement): void {
  createRoot(element).render(<Root />);
}
