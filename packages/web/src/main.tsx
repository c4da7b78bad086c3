import { createRoot } from "react-dom/client";
import { Root } from "./app.js";
import "./styles.css";

createRoot(document.getElementById("root")!).render(<Root />);
