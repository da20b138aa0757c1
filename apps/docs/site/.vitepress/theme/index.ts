import DefaultTheme from 'vitepress/theme';
import './custom.css';

/** VitePress's default theme with Boomerang's colours. */
export default DefaultTheme;
