/**
 * The demo catalogue: fictional brands, realistic rupee prices. Prices here are rupees
 * for readability; the seed converts them to paise.
 */
export interface DemoProduct {
  title: string
  category: string
  price: number
  originalPrice: number
  shortDescription: string
  description: string
  features: string[]
  tags: string[]
  validity: string
  deliveryTime: string
  featured?: boolean
  inStock?: boolean
  /** Glyph drawn on the generated artwork. */
  glyph: Glyph
  /** Hue (0-360) of the artwork gradient. */
  hue: number
}

export type Glyph =
  | 'play'
  | 'note'
  | 'code'
  | 'shield'
  | 'book'
  | 'pad'
  | 'brush'
  | 'star'
  | 'grid'
  | 'plug'
  | 'layout'
  | 'check'

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    title: 'StreamVerse Premium 12 Months',
    category: 'Streaming',
    price: 1499,
    originalPrice: 5988,
    shortDescription: 'Ad-free 4K movies and series on up to 4 screens for a full year.',
    description:
      'StreamVerse Premium unlocks the whole library in Ultra HD with Dolby audio, offline downloads and four simultaneous screens. A private profile on a fully paid account, renewed for twelve months.',
    features: [
      '4K Ultra HD and HDR',
      '4 screens at once',
      'Offline downloads',
      'Private profile with PIN',
    ],
    tags: ['streaming', 'movies', '4k'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'play',
    hue: 350,
  },
  {
    title: 'CineNova Ultra 6 Months',
    category: 'Streaming',
    price: 699,
    originalPrice: 1794,
    shortDescription: 'Regional blockbusters, originals and live cricket highlights.',
    description:
      'CineNova Ultra brings Hindi, Tamil, Telugu and international releases on the day they premiere, plus originals and match highlights. Works on TV, phone and browser.',
    features: ['Day-one regional releases', 'Full HD on 2 devices', 'Live sports highlights'],
    tags: ['streaming', 'regional', 'sports'],
    validity: '6 months',
    deliveryTime: 'Instant delivery',
    glyph: 'play',
    hue: 20,
  },
  {
    title: 'AnimeDen Plus 1 Year',
    category: 'Streaming',
    price: 549,
    originalPrice: 1999,
    shortDescription: 'Simulcast anime an hour after Japan, no ads.',
    description:
      'AnimeDen Plus streams new episodes an hour after their Japanese broadcast, with subtitles in English and Hindi and a back catalogue of over a thousand series.',
    features: [
      'Simulcasts without ads',
      'English and Hindi subtitles',
      'Offline viewing on mobile',
    ],
    tags: ['anime', 'streaming'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'play',
    hue: 280,
  },
  {
    title: 'PixelForge Office Suite Lifetime',
    category: 'Software',
    price: 1299,
    originalPrice: 8999,
    shortDescription: 'Documents, spreadsheets and slides with a one-time licence.',
    description:
      'PixelForge Office is a complete office suite for Windows and macOS: word processor, spreadsheet and presentations, fully compatible with common document formats. One licence key, activated once, yours for life.',
    features: [
      'Lifetime licence key',
      'Windows and macOS',
      'Opens and saves common office formats',
      'Free minor updates',
    ],
    tags: ['office', 'license', 'windows', 'mac'],
    validity: 'Lifetime',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'grid',
    hue: 210,
  },
  {
    title: 'CodeNest IDE Pro 1 Year',
    category: 'Software',
    price: 2499,
    originalPrice: 8990,
    shortDescription: 'A professional IDE with refactoring, debugger and AI completion.',
    description:
      'CodeNest IDE Pro supports 30+ languages with smart completion, a visual debugger, database tools and remote development. Personal licence for one developer on any number of machines.',
    features: [
      'Smart code completion',
      'Integrated debugger and profiler',
      'Database and HTTP client',
      'Remote development',
    ],
    tags: ['developer', 'ide', 'license'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    glyph: 'code',
    hue: 160,
  },
  {
    title: 'CareerLink Premium 6 Months',
    category: 'Premium',
    price: 899,
    originalPrice: 4999,
    shortDescription: 'See who viewed your profile, message recruiters, learn new skills.',
    description:
      'CareerLink Premium puts you ahead of other applicants: private browsing, InMail credits to recruiters, salary insights and the full course library.',
    features: [
      '5 recruiter messages a month',
      'Who viewed your profile',
      'Salary insights',
      'Full course library',
    ],
    tags: ['career', 'jobs', 'premium'],
    validity: '6 months',
    deliveryTime: 'Within 24 hours',
    featured: true,
    glyph: 'star',
    hue: 200,
  },
  {
    title: 'ChatMind Plus 1 Month',
    category: 'Premium',
    price: 799,
    originalPrice: 1999,
    shortDescription: 'The advanced AI assistant with priority access and file uploads.',
    description:
      'ChatMind Plus gives priority access to the newest models, longer conversations, file and image analysis and custom assistants. A shared seat on a team plan, renewed monthly.',
    features: [
      'Newest models first',
      'File and image analysis',
      'Custom assistants',
      'Priority at peak hours',
    ],
    tags: ['ai', 'assistant', 'premium'],
    validity: '1 month',
    deliveryTime: 'Instant delivery',
    glyph: 'star',
    hue: 140,
    inStock: false,
  },
  {
    title: 'TuneWave Premium Family 1 Year',
    category: 'Music',
    price: 999,
    originalPrice: 2868,
    shortDescription: 'Ad-free music for up to 6 family members.',
    description:
      'TuneWave Premium Family: six premium accounts under one plan, with offline downloads, lossless audio and a shared family mix. Each member keeps their own library.',
    features: ['6 premium accounts', 'Lossless audio', 'Offline downloads', 'No ads'],
    tags: ['music', 'family'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'note',
    hue: 130,
  },
  {
    title: 'BeatBox HiFi 6 Months',
    category: 'Music',
    price: 349,
    originalPrice: 714,
    shortDescription: 'Studio-quality streaming with lyrics and podcasts.',
    description:
      'BeatBox HiFi streams 24-bit audio with synced lyrics, curated playlists in 15 Indian languages and ad-free podcasts.',
    features: ['24-bit HiFi audio', 'Synced lyrics', 'Ad-free podcasts'],
    tags: ['music', 'hifi'],
    validity: '6 months',
    deliveryTime: 'Instant delivery',
    glyph: 'note',
    hue: 300,
  },
  {
    title: 'ComicVault Unlimited 1 Year',
    category: 'Entertainment',
    price: 599,
    originalPrice: 2400,
    shortDescription: 'Read 30,000+ comics and graphic novels on any device.',
    description:
      'ComicVault Unlimited opens a library of more than thirty thousand comics, manga and graphic novels, with new issues every week and offline reading.',
    features: ['30,000+ titles', 'New issues weekly', 'Offline reading'],
    tags: ['comics', 'reading'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'book',
    hue: 45,
  },
  {
    title: 'PodStack Premium 1 Year',
    category: 'Entertainment',
    price: 449,
    originalPrice: 1188,
    shortDescription: 'Audiobooks and premium podcasts, ad-free.',
    description:
      'PodStack Premium includes one audiobook credit a month, ad-free premium shows and early episodes from top Indian creators.',
    features: ['1 audiobook credit a month', 'Ad-free premium shows', 'Early episodes'],
    tags: ['podcasts', 'audiobooks'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    glyph: 'note',
    hue: 15,
  },
  {
    title: 'GameHive Pass Ultimate 3 Months',
    category: 'Games',
    price: 1199,
    originalPrice: 2697,
    shortDescription: 'Hundreds of PC and console games, online multiplayer included.',
    description:
      'GameHive Pass Ultimate gives access to a rotating library of hundreds of games on PC and console, day-one releases, online multiplayer and cloud play on your phone.',
    features: ['Hundreds of games', 'Day-one releases', 'Online multiplayer', 'Cloud gaming'],
    tags: ['gaming', 'pc', 'console'],
    validity: '3 months',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'pad',
    hue: 110,
  },
  {
    title: 'Questline Royale Battle Pass',
    category: 'Games',
    price: 299,
    originalPrice: 799,
    shortDescription: 'Season battle pass with 100 tiers of rewards.',
    description:
      'The Questline Royale season pass unlocks 100 tiers of skins, emotes and in-game currency. Delivered as a redeemable code for your region.',
    features: ['100 reward tiers', 'Exclusive season skins', 'Redeemable code'],
    tags: ['gaming', 'battle pass', 'code'],
    validity: 'One season',
    deliveryTime: 'Instant delivery',
    glyph: 'pad',
    hue: 260,
    inStock: false,
  },
  {
    title: 'Astrion Pro Theme Unlimited Sites',
    category: 'WordPress Themes',
    price: 1999,
    originalPrice: 9999,
    shortDescription: 'A fast, lightweight WordPress theme with 200+ starter sites.',
    description:
      'Astrion Pro is a performance-first WordPress theme with a visual header and footer builder, WooCommerce layouts and more than two hundred importable starter sites. Licence for unlimited sites.',
    features: [
      'Unlimited websites',
      '200+ starter templates',
      'WooCommerce ready',
      '1 year of updates',
    ],
    tags: ['wordpress', 'theme', 'woocommerce'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'layout',
    hue: 230,
  },
  {
    title: 'Divina Builder Theme Lifetime',
    category: 'WordPress Themes',
    price: 2999,
    originalPrice: 15999,
    shortDescription: 'Drag-and-drop theme builder with lifetime updates.',
    description:
      'Divina is a visual drag-and-drop WordPress theme and page builder with a library of layout packs, A/B testing and lifetime updates for unlimited sites.',
    features: ['Visual page builder', 'Layout packs', 'A/B testing', 'Lifetime updates'],
    tags: ['wordpress', 'theme', 'builder'],
    validity: 'Lifetime',
    deliveryTime: 'Instant delivery',
    glyph: 'layout',
    hue: 270,
  },
  {
    title: 'FormCraft Pro Plugin',
    category: 'Plugins',
    price: 799,
    originalPrice: 4999,
    shortDescription: 'Drag-and-drop forms with payments and conditional logic.',
    description:
      'FormCraft Pro builds any WordPress form with conditional logic, multi-page flows, UPI and card payments and more than forty integrations.',
    features: ['Conditional logic', 'Payments in forms', '40+ integrations', '1 year of updates'],
    tags: ['wordpress', 'plugin', 'forms'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'plug',
    hue: 25,
  },
  {
    title: 'RankSmith SEO Pro',
    category: 'Plugins',
    price: 999,
    originalPrice: 5900,
    shortDescription: 'Schema, redirects and keyword tracking for WordPress.',
    description:
      'RankSmith SEO Pro adds rich-result schema, a redirect manager, local SEO, keyword rank tracking and content analysis to your WordPress site.',
    features: ['Rich-result schema', 'Redirect manager', 'Rank tracking', 'Local SEO'],
    tags: ['wordpress', 'plugin', 'seo'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'plug',
    hue: 190,
  },
  {
    title: 'CanvasLab Pro 1 Year',
    category: 'Design Tools',
    price: 899,
    originalPrice: 3999,
    shortDescription: 'Premium templates, brand kits and background remover.',
    description:
      'CanvasLab Pro gives you millions of premium templates, photos and fonts, brand kits, one-click background removal and magic resize for every social format.',
    features: ['Premium template library', 'Brand kit', 'Background remover', 'Magic resize'],
    tags: ['design', 'templates'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'brush',
    hue: 185,
  },
  {
    title: 'VectorVibe Creative Suite 1 Year',
    category: 'Design Tools',
    price: 3499,
    originalPrice: 19999,
    shortDescription: 'Vector, photo and layout apps in one licence.',
    description:
      'VectorVibe Creative Suite bundles a vector illustrator, a photo editor and a page-layout app, with cloud storage and a stock asset library.',
    features: ['Vector, photo and layout apps', '100 GB cloud storage', 'Stock assets'],
    tags: ['design', 'illustration', 'photo'],
    validity: '1 Year',
    deliveryTime: 'Within 24 hours',
    glyph: 'brush',
    hue: 320,
  },
  {
    title: 'NoteGrid Pro 1 Year',
    category: 'Productivity',
    price: 599,
    originalPrice: 2999,
    shortDescription: 'Notes, docs and wikis with offline sync.',
    description:
      'NoteGrid Pro organises notes, documents and team wikis with unlimited blocks, version history, offline sync and AI summaries.',
    features: ['Unlimited blocks', 'Version history', 'Offline sync', 'AI summaries'],
    tags: ['notes', 'productivity'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    glyph: 'check',
    hue: 40,
  },
  {
    title: 'TaskPilot Business 1 Year',
    category: 'Productivity',
    price: 1499,
    originalPrice: 6999,
    shortDescription: 'Projects, timelines and automations for small teams.',
    description:
      'TaskPilot Business plans projects with boards, timelines and workloads, automates routine work and reports progress for teams of up to ten.',
    features: ['Boards and timelines', 'Automations', 'Workload view', 'Up to 10 members'],
    tags: ['projects', 'teams', 'productivity'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'check',
    hue: 90,
  },
  {
    title: 'ShieldLine VPN 2 Years',
    category: 'Security',
    price: 1299,
    originalPrice: 7188,
    shortDescription: 'Private browsing on 6 devices, 90+ countries.',
    description:
      'ShieldLine VPN encrypts your connection on up to six devices with servers in more than ninety countries, a strict no-logs policy and a kill switch.',
    features: ['6 devices', '90+ countries', 'No-logs policy', 'Kill switch'],
    tags: ['vpn', 'privacy', 'security'],
    validity: '24 months',
    deliveryTime: 'Instant delivery',
    featured: true,
    glyph: 'shield',
    hue: 150,
  },
  {
    title: 'VaultKey Password Manager Family',
    category: 'Security',
    price: 799,
    originalPrice: 3588,
    shortDescription: 'Passwords, passkeys and secure notes for 5 people.',
    description:
      'VaultKey Family stores passwords, passkeys, cards and secure notes for five people with end-to-end encryption, breach alerts and emergency access.',
    features: ['5 family members', 'Passkeys and 2FA codes', 'Breach alerts', 'Emergency access'],
    tags: ['passwords', 'security', 'family'],
    validity: '1 Year',
    deliveryTime: 'Instant delivery',
    glyph: 'shield',
    hue: 0,
  },
  {
    title: 'LearnLoop Plus 1 Year',
    category: 'Education',
    price: 1999,
    originalPrice: 4999,
    shortDescription: 'Unlimited university courses and certificates.',
    description:
      'LearnLoop Plus unlocks thousands of courses from universities and companies, with graded projects and shareable certificates on completion.',
    features: ['7,000+ courses', 'Graded projects', 'Certificates included'],
    tags: ['learning', 'courses', 'certificates'],
    validity: '1 Year',
    deliveryTime: 'Within 24 hours',
    glyph: 'book',
    hue: 220,
  },
  {
    title: 'LinguaLeap Super 12 Months',
    category: 'Education',
    price: 699,
    originalPrice: 2999,
    shortDescription: 'Learn 40 languages without ads or limits.',
    description:
      'LinguaLeap Super removes ads and heart limits, adds offline lessons, personalised practice and monthly progress reports for forty languages.',
    features: ['No ads, unlimited hearts', 'Offline lessons', 'Personalised practice'],
    tags: ['languages', 'learning'],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    glyph: 'book',
    hue: 100,
  },
  {
    title: 'StudioCut Video Editor Pro Lifetime',
    category: 'Software',
    price: 1799,
    originalPrice: 6999,
    shortDescription: 'Edit 4K video with effects, titles and AI captions.',
    description:
      'StudioCut Video Editor Pro edits 4K footage with hundreds of effects, motion titles, automatic captions in Indian languages and one-click export for every platform.',
    features: ['4K editing and export', 'Auto captions', '500+ effects', 'Lifetime licence key'],
    tags: ['video', 'editor', 'license'],
    validity: 'Lifetime',
    deliveryTime: 'Instant delivery',
    glyph: 'play',
    hue: 5,
  },
]
